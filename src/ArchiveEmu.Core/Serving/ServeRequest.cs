using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;

namespace ArchiveEmu.Core.Serving;

/// <summary>What a caller of <see cref="ArchiveServer.Serve"/> wants: which bytes and facts back, and whether the cache may be written.</summary>
internal sealed record ServeRequest
{
    /// <summary>
    /// The merge policy applied to an archive the cache holds no merged copy of; with a cache, its layout is stored
    /// too (so the next start skips parsing). Null reads the cache only: a fresh merged copy or layout is used, nothing is written.
    /// </summary>
    public MergePolicy? Merge { get; init; }

    /// <summary>The limits of <see cref="MergePolicy.Auto"/>.</summary>
    public MergeThresholds Thresholds { get; init; } = MergeThresholds.Default;

    /// <summary>How newly merged bytes are stored.</summary>
    public ChunkCompression Compression { get; init; } = ChunkCompression.Lz4;

    /// <summary>
    /// When set, asked for the codec instead of <see cref="Compression"/>, and only when merged bytes are about to be stored:
    /// deciding auto measures LZ4 on this machine (a quarter of a second), which a run that merges nothing never needs.
    /// </summary>
    public Func<ChunkCompression>? DecideCompression { get; init; }

    /// <summary>Return the bytes a reader sees (<see cref="ServedArchive.File"/>): the merged copy when the cache has one, else emulated.</summary>
    public bool OpenFile { get; init; }

    /// <summary>Return the emulated archive itself (<see cref="ServedArchive.Archive"/>), entries included.</summary>
    public bool KeepArchive { get; init; }

    /// <summary>Fill <see cref="ServedArchive.Summary"/> (sizes, entry counts, where the bytes come from), even when served merged.</summary>
    public bool Describe { get; init; }

    /// <summary>An emulated archive the caller already holds for this route (used instead of the stored layout or a parse; never disposed here).</summary>
    public EmulatedArchive? Kept { get; init; }

    /// <summary>Gets (bytes merged, total) while merged bytes are written.</summary>
    public Action<long, long>? Progress { get; init; }
}
