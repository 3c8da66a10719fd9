namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>
/// The words a user writes for a <see cref="MergePolicy"/> (<c>auto|always|never</c>) and a <see cref="CompressionChoice"/>
/// (<c>auto|lz4|none</c>), once: the CLI's options, the host's settings and the decisions' reasons all spell them from here.
/// </summary>
internal static class PolicyWords
{
    /// <summary>Every merge policy's word, in the enum's order: auto, always, never.</summary>
    public static readonly string[] MergePolicies = [.. Enum.GetValues<MergePolicy>().Select(Word)];

    /// <summary>Every compression choice's word, in the enum's order: auto, lz4, none.</summary>
    public static readonly string[] Compressions = [.. Enum.GetValues<CompressionChoice>().Select(Word)];

    public static string Word(this MergePolicy policy) => policy switch
    {
        MergePolicy.Auto => "auto",
        MergePolicy.Always => "always",
        MergePolicy.Never => "never",
        _ => throw new ArgumentOutOfRangeException(nameof(policy), policy, null),
    };

    public static string Word(this CompressionChoice choice) => choice switch
    {
        CompressionChoice.Auto => "auto",
        CompressionChoice.Lz4 => "lz4",
        CompressionChoice.None => "none",
        _ => throw new ArgumentOutOfRangeException(nameof(choice), choice, null),
    };

    /// <summary>The policy <paramref name="word"/> names, exactly as written (no other case); null for any other text.</summary>
    public static MergePolicy? MergePolicyOf(string? word) => Of<MergePolicy>(word, Word);

    /// <summary>The compression choice <paramref name="word"/> names, exactly as written (no other case); null for any other text.</summary>
    public static CompressionChoice? CompressionOf(string? word) => Of<CompressionChoice>(word, Word);

    private static T? Of<T>(string? word, Func<T, string> spell) where T : struct, Enum =>
        Enum.GetValues<T>().Where(v => spell(v) == word).Select(v => (T?)v).FirstOrDefault();
}
