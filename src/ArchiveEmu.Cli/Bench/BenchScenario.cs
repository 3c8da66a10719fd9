namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// One benchmark scenario: an AFS archive of <see cref="EntryCount"/> textures, of which the entries
/// <see cref="IsInjected"/> picks are replaced by loose files from a mod folder.
/// </summary>
/// <param name="Name">The name given on the command line and in the JSON.</param>
/// <param name="EntryCount">Textures in the archive.</param>
/// <param name="TextureBytes">Block data per texture (a power of two); each DDS file adds a 128-byte header.</param>
/// <param name="InjectedEvery">Every n-th entry (from 0) is injected; 1 = 100% emulated.</param>
/// <param name="Summary">What the scenario stands for, for the table.</param>
internal sealed record BenchScenario(string Name, int EntryCount, int TextureBytes, int InjectedEvery, string Summary)
{
    public const int MinTextureBytes = 4096;

    /// <summary>Every scenario, in the order <c>all</c> runs them.</summary>
    public static IReadOnlyList<BenchScenario> All { get; } =
    [
        new("texture-archive", 32, 2 << 20, 2, "the article's example: 64 MiB, 32 textures, 16 injected"),
        new("16x4M", 16, 4 << 20, 1, "16 files of 4 MiB, 100% emulated"),
        new("64x1M", 64, 1 << 20, 1, "64 files of 1 MiB, 100% emulated"),
        new("512x128K", 512, 128 << 10, 1, "512 files of 128 KiB, 100% emulated"),
        new("large-10pct", 4096, 256 << 10, 10, "1 GiB, 4,096 entries, 10% injected"),
    ];

    /// <summary>What runs without arguments: finishes well under a minute.</summary>
    public static IReadOnlyList<BenchScenario> Default { get; } = [All[0], All[3]];

    public static BenchScenario? Find(string name) => All.FirstOrDefault(s => s.Name == name);

    public bool IsInjected(int entry) => entry % InjectedEvery == 0;

    public int InjectedCount => (EntryCount + InjectedEvery - 1) / InjectedEvery;

    /// <summary>The same scenario with every texture <paramref name="divisor"/> times smaller (tests use this; never below 4 KiB).</summary>
    public BenchScenario ScaledDown(int divisor) =>
        divisor == 1 ? this : this with { TextureBytes = Math.Max(MinTextureBytes, TextureBytes / divisor) };

    /// <summary>The archive's file name inside the generated game folder.</summary>
    public string ArchiveFileName => $"{Name}.afs";
}
