namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// What <c>bench --explain</c> prints once after the tables: every column header and every path name, one line each.
/// A table's new column needs an entry here (BenchReadableOutputTests parses the headers against it).
/// </summary>
internal static class BenchLegend
{
    public const string Heading = "legend (--explain): what the columns and names mean";

    private static readonly IReadOnlyList<(string Terms, string Means)> Columns =
    [
        ("measured, whole read", "rows timed on this machine; left of |: the whole archive read front to back in --block-size calls"),
        ("4K random MB/s", "right of |: 4 KiB reads at random offsets (--random-reads per run); its xsolid and reads are the random reads'"),
        ("entries MB/s", "right of the second |: a game's loader, up to 400 whole entries in random order, each read in pieces of one"
            + " size from 64 KiB-1 MiB; its xsolid is the entries'"),
        ("MB/s", "10^6 bytes per second, median of the runs"),
        ("min / max", "the lowest and highest of the runs (MB/s in the read table, ms in the build table)"),
        ("xsolid", "this path's speed / solid's in the same run, median of the runs; 1.00 = as fast as the original file"),
        ("range", "lowest-highest per-run xsolid: two paths whose ranges overlap differ within this machine's noise"),
        ("opens", "files opened by one whole read (0 for -kept: opened before the timed runs)"),
        ("reads", "read requests sent to files by one whole read (right of |: by one run of random reads)"),
        ("pieces", "stretches of file those requests cover one after another: on a hard disk each piece costs a seek"),
        ("open ms", "time to open the archive as the path does (median)"),
        ("peak MiB", "largest rise of resident memory during a run"),
        ("estimate, not measured", "the recorded read trace priced with the SOLID article's drives: transfer + a cost per piece, no CPU work"
            + " (LZ4 decoding is free there, so merged-lz4 can pass 1.00x while it measures far below)"),
        (string.Join(" / ", DeviceModel.Article.Select(d => $"{d.Name} MB/s")), "estimated speed on the article's hard disk, SATA SSD and NVMe drive"),
        ("one-time build", "ways of producing the modded archive: paid once when the mods change, never per read"),
        ("ms", "milliseconds, median of the runs"),
        ("speed vs repack", "repack's time / this path's time in the same run; above 1.0x = faster than a repack"),
        ("stored", "share of the archive's size the merged cache stores (below 100% when LZ4 shrank it)"),
    ];

    private static readonly (string Terms, string Means)[] ReadPaths =
    [
        (ReadPath.Solid, "the original: one plain file with the modded archive's bytes (what a repack gives); every ratio is against it"),
        ("emulated", "ArchiveEmu serving the archive from the game's original and the mod's loose files, opened fresh every run"),
        ("emulated-kept / merged-kept", "-kept: opened once and kept across runs, as the mount host keeps an open file"),
        ("merged", "the emulated bytes stored once in the merged cache (build --merge), raw, opened fresh every run"),
        ("merged-lz4", "the same stored as LZ4 chunks: fewer bytes from the disk, decoded ahead of the reader on another core;"
            + " decoded chunks are kept in the process between opens, so warm runs copy them; --cold empties that store before every run"),
        ("lz4 on texture-like data", "LZ4 alone on this data, in memory: stored share, chunks that shrank, decode speed"),
    ];

    public static void Write(TextWriter o, IEnumerable<BuildMeasurements> builds)
    {
        var entries = Columns.Concat(ReadPaths).Concat(builds.Select(b => (b.Name, b.Means))).ToList();
        int width = entries.Max(e => e.Item1.Length) + 2;
        o.WriteLine();
        o.WriteLine(Heading);
        foreach (var (terms, means) in entries)
            o.WriteLine($"  {terms.PadRight(width)}{means}");
    }
}
