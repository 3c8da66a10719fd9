namespace ArchiveEmu.Core.Serving.Plans;

/// <summary>
/// The route plan file (<c>plans/&lt;key&gt;.plan</c> in the cache folder), sealed in the cache's one envelope
/// (<see cref="MergedCache.Index.CacheEnvelope"/>: magic, version, length, payload, checksum); its payload is the key it was stored
/// under, then the plan. The key inside names the file's contents: two plans renamed onto each other's names (a copied or
/// synced cache folder) made each game serve the other's mods.
/// </summary>
internal static class PlanFormat
{
    /// <summary>"AEPLAN" and two zero bytes.</summary>
    public static ReadOnlySpan<byte> Magic => "AEPLAN\0\0"u8;

    /// <summary>Bumped whenever the file's layout changes.</summary>
    public const int Version = 3; // 2: the key; 3: the cache's envelope (its length and reserved word)

    /// <summary>
    /// This build of ArchiveEmu (its Core assembly's module version id): a plan is what one build's rules made of the files,
    /// so another build resolves again rather than trust rules it did not apply.
    /// </summary>
    public static string Build { get; } = typeof(PlanFormat).Assembly.ManifestModule.ModuleVersionId.ToString("N");

    // Kinds of an entry's input, as written.
    public const byte DeleteInput = 0, FileInput = 1, BytesInput = 2, VirtualInput = 3;

    // Kinds of a virtual input's run.
    public const byte FileRun = 1, BytesRun = 2, ZerosRun = 3;
}
