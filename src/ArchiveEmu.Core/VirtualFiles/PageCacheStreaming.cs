namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// How a reader that streams through cold sources uses the page cache (see <see cref="PageCacheReads"/>): which reads
/// count as streaming, how much a reader that misses brings in itself, and how far the background threads keep ahead of
/// it. The one place for these figures: <see cref="StreamingBringIn"/> (a virtual file's slices) and the merged cache's
/// source (a pack's extent) each read them from their own instance. Measured with `archiveemu bench --cold` (docs/BENCHMARKS.md).
/// </summary>
internal sealed record PageCacheStreaming
{
    /// <summary>A read at least this big may be part of a stream (<see cref="ReadRun"/>); smaller ones are left to the kernel.</summary>
    public const int MinStreamingRead = 64 * 1024;

    /// <summary>
    /// How many bytes one after another a reader of a virtual file must have read before its sources are brought in ahead of
    /// it (<see cref="ReadRun"/>): past every entry of a game's loader but the few biggest (issue 47's mix: 99.6 % of the
    /// entries under 1 MB). A run counts what the kernel asked of the host, its read-ahead of the mounted file included: as
    /// root (4 MiB of it) a loader reading a 1 MiB entry in 256 KiB pieces asks for 3-7 MiB, so at 2 MiB such loads were
    /// streams and read 2x the plain file's bytes (ColdLoaderReadTests). Below it the host reads what the kernel asks for,
    /// and the kernel's read-ahead of the reader's own file is the only read-ahead, as it is for the plain file.
    /// </summary>
    public long MinStreamRun { get; init; } = 8L << 20;

    /// <summary>The policy of a virtual file's slices.</summary>
    public static PageCacheStreaming ForVirtualFiles { get; } = new();

    /// <summary>
    /// The policy of a merged archive's extent in its pack. Past 128 MiB the kernel's own read-ahead, ramped up over a long
    /// stream, did better: a 1 GiB merged archive read cold at 0.6-0.75x of solid brought in this way, 1.1x without
    /// (bench large-10pct --cold). The cache is meant for &lt; 32 MB.
    /// </summary>
    public static PageCacheStreaming ForMergedPacks { get; } = new() { MaxBroughtInLength = 128L << 20 };

    /// <summary>False: nothing is brought in or asked ahead, the kernel's read-ahead alone (what `benchmarks coldmerged` compares).</summary>
    public bool BringsIn { get; init; } = true;

    /// <summary>
    /// What a streaming reader that finds its next bytes not cached brings in itself, and waits for, before its read; never
    /// more than half its run so far (<see cref="Within"/>), as the kernel's read-ahead of a plain file grows with its stream.
    /// </summary>
    public long BringInBytes { get; init; } = 4L << 20;

    /// <summary>
    /// How far ahead of a reader whose run is not a stream yet (a loader going through one entry) the kernel is asked to read
    /// (posix_fadvise WILLNEED, small pages), never more than its run so far: the kernel's read-ahead of a plain file opens a
    /// window of up to four times a read that follows another, where a normal user's mount asks the host for 128 KiB at a
    /// time, one round trip and one disk read after another.
    /// </summary>
    public long ShortRunAheadBytes { get; init; } = 1L << 20;

    /// <summary>The shortest run asked ahead of (<see cref="ShortRunAheadBytes"/>).</summary>
    public long MinShortRun { get; init; } = 512L << 10;

    /// <summary>Whether a reader whose run is <paramref name="run"/> bytes, not a stream, has the next bytes asked for.</summary>
    public bool AsksAheadOf(long run) => BringsIn && run >= MinShortRun;

    /// <summary>How far ahead of a cold reader the background threads are asked to bring the file in; never more than half its run so far.</summary>
    public long AheadBytes { get; init; } = 16L << 20;

    /// <summary>At most this many slices of a virtual file asked for ahead of its reader at once.</summary>
    public int AheadSegments { get; init; } = 32;

    /// <summary>A stream longer than this is left to the kernel's read-ahead.</summary>
    public long MaxBroughtInLength { get; init; } = long.MaxValue;

    /// <summary>
    /// A stream's reach: <paramref name="bytes"/>, but no more than half the reader's <paramref name="run"/> so far, as the
    /// kernel's read-ahead of a plain file doubles its window (and the window before the last is half the stream so far).
    /// </summary>
    public static long Within(long bytes, long run) => Math.Min(bytes, run / 2);

    /// <summary>
    /// This policy for a mount whose kernel read-ahead window is <paramref name="window"/> bytes (a normal user's 128 KiB,
    /// root's 4 MiB): a run counts what the kernel asked for, its read-ahead included, and a window that already reads as
    /// far ahead as the plain file's needs little help. So a run must be four windows long to be a stream and two to be asked
    /// ahead of. Measured as root (4 MiB window) with the thresholds for 128 KiB, the load trace with a streaming reader
    /// beside it read 1.29x the plain file's bytes and took 1.74x its time (bring-in off: 0.69x, 1.22x).
    /// </summary>
    public PageCacheStreaming ForMountReadAhead(long window) =>
        this with { MinStreamRun = Math.Max(MinStreamRun, 4 * window), MinShortRun = Math.Max(MinShortRun, 2 * window) };

    /// <summary>Whether a reader whose run is <paramref name="run"/> bytes is streaming (a virtual file's slices are brought in ahead of it).</summary>
    public bool IsStream(long run) => BringsIn && run >= MinStreamRun;

    /// <summary>Whether a read of <paramref name="length"/> bytes is one the policy looks at (a read that is not, in one segment, need not be told).</summary>
    public static bool IsStreaming(int length) => length >= MinStreamingRead;

    /// <summary>Whether a read of <paramref name="length"/> bytes of a stream of <paramref name="streamLength"/> bytes is brought in.</summary>
    public bool BringsInRead(int length, long streamLength) => BringsIn && IsStreaming(length) && streamLength <= MaxBroughtInLength;
}
