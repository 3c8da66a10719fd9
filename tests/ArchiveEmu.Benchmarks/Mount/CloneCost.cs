using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Issue 34's question about a copy-on-write clone of an emulated archive (btrfs, XFS): extents are shared only in whole
/// 4 KiB blocks at the same offset within a block on both sides, so how many of an emulated archive's bytes could such a
/// clone share with the original and the mod files, and how many would it have to write? Worked out from the segment map
/// alone (no file system is touched): a block is shared when one file segment covers it whole and its source offset is
/// block-aligned with it; a block of zeros only is left a hole; every other block is written.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- clonecost [--dir DIR]</c> (the bigmount AFS at 1 % and 10 %
/// mod bytes, and the P5R-scale CPKs).
/// </summary>
internal static class CloneCost
{
    private const long Block = Core.RealFiles.ClonePlan.Block;

    public static int Run(string[] args)
    {
        string dir = args.SkipWhile(a => a != "--dir").Skip(1).FirstOrDefault() ?? Path.Combine(Path.GetTempPath(), $"archiveemu-clonecost-{Environment.ProcessId}");
        try
        {
            Console.WriteLine("| archive | size | mod bytes | segments | shared | written | holes |");
            Console.WriteLine("| --- | --- | --- | --- | --- | --- | --- |");
            foreach (var (percent, injectEvery) in new[] { (1, 100), (10, 10) })
            {
                string game = Path.Combine(dir, $"afs-{percent}", "game");
                Formats.LargeAfsFixture.Write(game, 4096, 256 * 1024, injectEvery, out _, out _);
                string mod = Path.Combine(dir, $"afs-{percent}", "mod");
                Directory.CreateDirectory(mod);
                Directory.Move(Path.Combine(game, "mod"), Path.Combine(mod, "large.afs"));
                using var file = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(game, [mod])).OpenFile("large.afs");
                Report($"AFS, 4,096 × 256 KiB, every {injectEvery}th replaced (±1 KiB)", file);
            }
            var p5r = P5rScaleGame.Open(Path.Combine(dir, "p5r"), new P5rScaleGame.Scale());
            var emulated = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(p5r.Game, [.. p5r.ModFolders]));
            foreach (var cpk in p5r.CpkPaths.Keys.Order())
            {
                using var file = emulated.OpenFile(cpk);
                Report($"P5R scale {cpk}", file);
            }
            return 0;
        }
        finally
        {
            if (!args.Contains("--dir"))
                Directory.Delete(dir, recursive: true);
        }
    }

    private static void Report(string name, VirtualFile file)
    {
        var (shared, written, holes, fromMods) = Count(file);
        static string Share(long part, long whole) => $"{part / 1048576.0:0.0} MiB ({100.0 * part / whole:0.0} %)";
        Console.WriteLine($"| {name} | {file.Length / 1048576.0:0.0} MiB | {Share(fromMods, file.Length)} | {file.Segments.Length:N0} | "
                          + $"{Share(shared, file.Length)} | {Share(written, file.Length)} | {Share(holes, file.Length)} |");
    }

    /// <summary>Bytes in shared blocks (Core's <c>ClonePlan</c>, what <c>ArchiveClone</c> clones), written blocks and hole blocks (the last block counted at its real length), and bytes from mod files.</summary>
    internal static (long Shared, long Written, long Holes, long FromMods) Count(VirtualFile file)
    {
        var segments = file.Segments;
        var original = segments.ToArray().Select(s => s.Source).OfType<FileSource>().GroupBy(s => s.Path)
            .OrderByDescending(g => g.Sum(s => 1)).First().Key; // the archive's own file: the most segments
        long fromMods = 0;
        foreach (var s in segments)
            if (s.Source is FileSource f && f.Path != original)
                fromMods += s.Length;
        var plan = Core.RealFiles.ClonePlan.Of(file, original);
        long shared = plan.Sum(r => r.Length), written = 0, holes = 0;
        int i = 0, next = 0;
        for (long block = 0; block < file.Length; block += Block)
        {
            while (next < plan.Count && plan[next].Offset + plan[next].Length <= block)
                next++;
            if (next < plan.Count && plan[next].Offset <= block)
                continue; // shared
            long end = Math.Min(block + Block, file.Length);
            while (segments[i].VirtualEnd <= block)
                i++;
            if (OnlyZeros(segments, i, end))
                holes += end - block;
            else
                written += end - block;
        }
        return (shared, written, holes, fromMods);
    }

    private static bool OnlyZeros(ReadOnlySpan<Segment> segments, int i, long end)
    {
        for (; i < segments.Length && segments[i].VirtualOffset < end; i++)
            if (segments[i].Source is not ZeroSource)
                return false;
        return true;
    }
}
