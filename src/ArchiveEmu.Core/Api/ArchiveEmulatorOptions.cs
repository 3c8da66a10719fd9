using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core;

/// <summary>How an <see cref="ArchiveEmulator"/> serves: with or without the merged file cache.</summary>
public sealed record ArchiveEmulatorOptions
{
    /// <summary>The merged file cache folder; null serves by emulation only (no layouts or merged copies stored).</summary>
    public string? CacheFolder { get; init; }

    /// <summary>Whether cache keys include xxHash3 of every input (for filesystems with coarse mtimes).</summary>
    public bool VerifyContent { get; init; }

    /// <summary>Called with each warning: a damaged cache entry dropped (served by emulation instead), a full cache disk, a mod mistake found while serving.</summary>
    public Action<string>? Warn { get; init; }

    /// <summary>The pool of open handles virtual files read through; null uses <see cref="FileHandlePool.Shared"/>.</summary>
    public FileHandlePool? Pool { get; init; }

    /// <summary>How <see cref="ArchiveEmulator.Merge(string)"/> stores merged bytes: auto (the default) measures the cache device against LZ4.</summary>
    public CompressionChoice Compression { get; init; } = CompressionChoice.Auto;

    /// <summary>
    /// The game's language, a Localisation Framework id (<c>en</c>, <c>ja</c>, <c>zh-Hans</c>, any letter case): which
    /// <c>FEmulator/L10N/&lt;id&gt;/</c> folders apply. Null: <c>en</c>. The library never looks at the machine for it (a mod
    /// loader knows the game's language; <c>archiveemu</c> takes the one Steam records). An unknown id is an
    /// <see cref="ArgumentException"/> from the <see cref="ArchiveEmulator"/> constructor.
    /// </summary>
    public string? Language { get; init; }

    /// <summary>What auto measures with; null measures this machine (tests give fixed figures).</summary>
    internal CodecProbes? CodecProbes { get; init; }

    internal MergedFileCache? OpenCache() =>
        CacheFolder is null ? null : new MergedFileCache(CacheFolder, new CacheOptions(Warn: Warn));
}
