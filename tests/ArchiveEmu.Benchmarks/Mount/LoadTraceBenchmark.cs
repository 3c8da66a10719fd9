using System.Diagnostics;
using System.Globalization;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Issue 47's benchmark: a game's loader reading a big emulated CPK cold through the mount, against the same bytes as a
/// plain file, in the same rounds (<see cref="LoadTraceGame"/>, <see cref="LoadTrace"/>). Each round measures every target
/// in a rotated order, each after dropping the page cache (as root the whole cache, as any user every file involved with
/// posix_fadvise), and counts the bytes the reader and the hosts read from the disk (/proc/PID/io read_bytes; also the
/// blkio cgroup's counter when run in one). For a normal user's figures run it as that user; for a capped disk, inside a
/// throttling cgroup: <c>sh tests/ArchiveEmu.Benchmarks/capped.sh [--user NAME] -- loadtrace --dir DIR</c> does both.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- loadtrace [--runs 7] [--dir DIR] [--entries 20000]
/// [--traced 400] [--seed 47] [--cases trace,warm,small,readers,movie,boundary,seq,random] [--bring-in true|false]
/// [--also-no-bring-in] [--also-untouched] [--also-path FILE]… [--passthrough true|false] [--delete]</c>.
/// </summary>
internal static class LoadTraceBenchmark
{
    public static int Run(string[] args)
    {
        int runs = Number(args, "--runs", 7), seed = Number(args, "--seed", 47);
        string[] cases = (MountTransportBenchmark.Value(args, "--cases") ?? "trace,warm,small,readers,movie,boundary,seq,random").Split(',');
        string root = MountTransportBenchmark.Value(args, "--dir") ?? Path.Combine(Path.GetTempPath(), "archiveemu-loadtrace");
        string[] hostArgs = [.. MountReadBenchmark.Option(args, "--bring-in", "ArchiveEmu:BringIn"), .. MountReadBenchmark.Option(args, "--fuse", "ArchiveEmu:Fuse"),
            .. MountReadBenchmark.Option(args, "--passthrough", "ArchiveEmu:Passthrough")];
        var clock = Stopwatch.StartNew();
        var game = LoadTraceGame.Open(root, Number(args, "--entries", 20_000), seed);
        var trace = new LoadTrace(game, Number(args, "--traced", 400), seed);
        Console.WriteLine($"CPK {game.Length / 1e9:0.00} GB, {game.Entries.Length} entries, {game.ModFiles.Length} replaced by the mod "
                          + $"({game.ModFiles.Sum(f => new FileInfo(f).Length) / 1e6:0.0} MB); ready in {clock.Elapsed.TotalSeconds:0.0} s; the trace reads {trace.TracedBytes / 1e6:0.0} MB");
        Console.WriteLine($"user {Environment.UserName}, host options: {(hostArgs.Length == 0 ? "defaults" : string.Join(' ', hostArgs))}, runs {runs}, "
                          + $"{DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load {File.ReadAllText("/proc/loadavg").Split(' ')[0]}, {DiskBytes.Describe()}");
        try
        {
            using var host = Start(root, "mnt", game, hostArgs);
            using var plainHost = args.Contains("--also-no-bring-in") ? Start(root, "mnt-no-bring-in", game, [.. hostArgs, "--ArchiveEmu:BringIn=false"]) : null;
            var hosts = plainHost is null ? new[] { host } : [host, plainHost];
            // --also-untouched: the plain file as a game file no mod touches (a hard link in the game folder), served by the same
            // host: what the transport alone costs (passed through as root, unless --passthrough false).
            bool untouched = args.Contains("--also-untouched");
            // --also-path FILE: any other file holding the plain file's bytes, such as plain.bin through another FUSE server
            // (bindfs): the floor of the FUSE transport on this machine, with nobody's code of ours in it.
            string[] others = args.Select((a, i) => (a, i)).Where(p => p.a == "--also-path" && p.i + 1 < args.Length).Select(p => args[p.i + 1]).ToArray();
            string[] targets = [game.Plain, .. hosts.Select(h => h.Mounted(LoadTraceGame.CpkPath)), .. untouched ? [host.Mounted(LoadTraceGame.Untouched)] : Array.Empty<string>(), .. others];
            string[] names = ["plain file", "mount", .. plainHost is null ? Array.Empty<string>() : ["mount, bring-in off"], .. untouched ? ["mount, untouched file"] : Array.Empty<string>(),
                .. others];
            foreach (var target in targets[1..])
                if (new FileInfo(target).Length != game.Length)
                    throw new InvalidOperationException($"{target}: {new FileInfo(target).Length} bytes, the plain file has {game.Length}");
            clock.Restart();
            foreach (var target in targets[1..])
                CheckSame(game, target);
            Console.WriteLine($"every traced entry of every target holds the plain file's bytes (checked in {clock.Elapsed.TotalSeconds:0.0} s)");
            string[] dropped = [game.Plain, game.Original, .. game.ModFiles, .. targets[1..]];
            int[] pids = [Environment.ProcessId, .. hosts.Select(h => h.ProcessId)];
            var bench = new Rounds(runs, targets, names, dropped, pids);

            Console.WriteLine();
            if (cases.Contains("trace"))
                bench.Report("load trace, cold", cold: true, trace.Trace, perItem: "entry");
            if (cases.Contains("warm"))
                bench.Report("load trace, warm", cold: false, trace.Trace, perItem: "entry");
            if (cases.Contains("small"))
                bench.Report("1,000 small entries (≤ 64 KiB) in random order, cold", cold: true, path => trace.SmallEntries(path, 1000), perItem: "entry");
            if (cases.Contains("readers"))
                bench.Report("load trace with a streaming reader beside it, cold", cold: true, trace.WithStreamer, perItem: "loader's entry");
            if (cases.Contains("movie"))
                bench.Report("the 4 biggest entries streamed in 256 KiB reads, cold", cold: true, path => trace.Movie(path, 4), perItem: null);
            if (cases.Contains("boundary"))
                bench.Report("128 KiB reads across an original slice and a mod file, cold", cold: true, trace.Boundaries, perItem: "read");
            if (cases.Contains("seq"))
                bench.Report("the whole CPK in 1 MiB reads, cold", cold: true, LoadTrace.Sequential, perItem: null);
            if (cases.Contains("random"))
                bench.Report("2,000 4 KiB random reads, cold", cold: true, path => trace.Random4K(path, 2000), perItem: "read");
            return 0;
        }
        finally
        {
            foreach (var mount in new[] { "mnt", "mnt-no-bring-in" })
                if (Directory.Exists(Path.Combine(root, mount)) && !File.ReadAllText("/proc/self/mountinfo").Contains(Path.Combine(root, mount)))
                    Directory.Delete(Path.Combine(root, mount));
            if (args.Contains("--delete"))
                Directory.Delete(root, recursive: true);
        }
    }

    private static BenchHost Start(string root, string mount, LoadTraceGame game, string[] hostArgs) => BenchHost.Start(Path.Combine(root, mount),
        [$"--ArchiveEmu:Game={game.Game}", $"--ArchiveEmu:Mods:0={game.Mod}", $"--ArchiveEmu:Cache={Path.Combine(root, "cache")}", .. hostArgs]);

    /// <summary>The header and TOC, every replaced entry and every 50th entry, byte for byte, against the plain file (which also builds and warms the host's archive).</summary>
    private static void CheckSame(LoadTraceGame game, string target)
    {
        using var plain = File.OpenHandle(game.Plain);
        using var mounted = File.OpenHandle(target);
        var left = new byte[8 << 20];
        var right = new byte[8 << 20];
        foreach (var entry in game.Entries.Where((e, i) => e.Modded || i % 50 == 0).Prepend(new LoadTraceGame.Entry("TOC", 0, game.TocOffset + game.TocLength, false)))
        {
            int n = (int)entry.Length;
            if (RandomAccess.Read(plain, left.AsSpan(0, n), entry.Offset) != n || RandomAccess.Read(mounted, right.AsSpan(0, n), entry.Offset) != n
                || !left.AsSpan(0, n).SequenceEqual(right.AsSpan(0, n)))
                throw new InvalidOperationException($"{target}: {entry.Path} at {entry.Offset} differs from the plain file");
        }
    }

    /// <summary>One figure per target per round, targets in a rotated order, each cold when asked; the report is medians and per-round ratios.</summary>
    private sealed class Rounds(int runs, string[] targets, string[] names, string[] dropped, int[] pids)
    {
        public void Report(string name, bool cold, Func<string, LoadTrace.Result> measure, string? perItem)
        {
            var results = new LoadTrace.Result[runs, targets.Length];
            var disk = new long[runs, targets.Length];
            var cgroup = new long[runs, targets.Length];
            for (int round = 0; round < runs; round++)
                for (int k = 0; k < targets.Length; k++)
                {
                    int target = (round + k) % targets.Length;
                    if (cold)
                        Drop(dropped);
                    long before = DiskBytes.OfProcesses(pids), cgroupBefore = DiskBytes.OfCgroup();
                    results[round, target] = measure(targets[target]);
                    disk[round, target] = DiskBytes.OfProcesses(pids) - before;
                    cgroup[round, target] = DiskBytes.OfCgroup() - cgroupBefore;
                }
            Console.WriteLine($"### {name} (median of {runs} rounds; ratios: median of the per-round ratios to the plain file)");
            Console.WriteLine("| target | time | ratio | " + (perItem is null ? "MB/s | " : $"p50 per {perItem} | p99 per {perItem} | p99 ratio | ") + "disk read | ratio |");
            Console.WriteLine("| --- | --- | --- | " + (perItem is null ? "--- | " : "--- | --- | --- | ") + "--- | --- |");
            for (int t = 0; t < targets.Length; t++)
            {
                double Median(Func<int, double> of) => Enumerable.Range(0, runs).Select(of).Order().ElementAt(runs / 2);
                double ms = Median(r => results[r, t].TotalMs), ratio = Median(r => results[r, t].TotalMs / results[r, 0].TotalMs);
                var line = $"| {names[t]} | {ms:0.0} ms | {ratio:0.00}× | ";
                line += perItem is null
                    ? $"{Median(r => results[r, t].Bytes / results[r, t].TotalMs / 1e3):0} | "
                    : $"{Median(r => Percentile(results[r, t].ItemsUs, 0.5)):0} µs | {Median(r => Percentile(results[r, t].ItemsUs, 0.99)):0} µs | "
                      + $"{Median(r => Percentile(results[r, t].ItemsUs, 0.99) / Percentile(results[r, 0].ItemsUs, 0.99)):0.00}× | ";
                bool byCgroup = DiskBytes.HasCgroup;
                double MB(int r, int of) => (byCgroup ? cgroup[r, of] : disk[r, of]) / 1e6;
                line += $"{Median(r => MB(r, t)):0.0} MB{(byCgroup ? $" (processes: {Median(r => disk[r, t] / 1e6):0.0})" : "")} | "
                        + $"{Median(r => MB(r, 0) > 0 ? MB(r, t) / MB(r, 0) : double.NaN):0.00}× |";
                Console.WriteLine(line);
            }
            var rounds = Enumerable.Range(0, runs).Select(r => string.Join(" / ", Enumerable.Range(0, targets.Length).Select(t => $"{results[r, t].TotalMs:0}"))).ToArray();
            Console.WriteLine($"rounds, ms ({string.Join(" / ", names)}): {string.Join("; ", rounds)}");
            Console.WriteLine();
        }

        private static double Percentile(double[] values, double p)
        {
            if (values.Length == 0)
                return 0;
            var sorted = values.Order().ToArray();
            return sorted[Math.Min(sorted.Length - 1, (int)(p * sorted.Length))];
        }

        /// <summary>As root the whole page cache (after sync); as anyone, each file's pages (the mounted files' own cache included).</summary>
        private static void Drop(string[] paths)
        {
            if (Environment.UserName == "root")
            {
                using (var sync = Process.Start("sync"))
                    sync.WaitForExit();
                File.WriteAllText("/proc/sys/vm/drop_caches", "3");
            }
            MountTransportBenchmark.DropEach(paths);
        }
    }

    private static int Number(string[] args, string name, int fallback) => MountTransportBenchmark.Value(args, name) is { } v ? int.Parse(v, CultureInfo.InvariantCulture) : fallback;
}
