using System.Diagnostics;
using ArchiveEmu.Benchmarks.Formats;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Issue 34's benchmark: a big emulated archive (1 GiB AFS by default, 1 % of its bytes from a mod's loose files)
/// read through the mount by whichever transport the host picks for the user running this (root: the host's own
/// FUSE protocol with passthrough; a normal user: what the host uses then), against the same bytes as a plain file
/// read directly, and through the same mount as an untouched game file (passed through when the host can).
/// Runs as any user: cold reads drop the files' pages with posix_fadvise(DONTNEED), so no root is needed; for a
/// throttled device, put <c>--dir</c> on it and run this inside the throttling cgroup.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- bigmount [--runs 7] [--dir DIR] [--size-mib 1024]
/// [--mod-percent 1] [--keep] [--cases seq,random,readers,roundtrip,cold] [--fuse kernel|libfuse] [--passthrough true|false] [--threads N] [--also-libfuse]
/// [--clone]</c>. With <c>--clone</c> the untouched game file is a copy-on-write clone of the emulated archive (Core's
/// <c>ArchiveClone</c>; <c>--dir</c> on btrfs or XFS), so that column measures a clone served through the mount.
/// </summary>
internal static class MountTransportBenchmark
{
    private const int EntrySize = 256 * 1024;
    private const int RandomReadsWarm = 50_000, RandomReadsCold = 2_000, Readers = 4;

    /// <summary>
    /// <c>bigmount-roundtrip FILE…</c>: the round-trip case alone on files of any mount (another FUSE server's, such as
    /// libfuse's examples with and without <c>-o io_uring</c>): each file's pages dropped, then random 4 KiB reads, µs per read.
    /// </summary>
    public static int RoundTrip(string[] files)
    {
        var rounds = Rounds(9, files, path => { Drop([path]); return RandomReads(path, RandomReadsCold); });
        for (int f = 0; f < files.Length; f++)
            Console.WriteLine($"{files[f]}: {Median(rounds.Select(r => r[f])):0.0} µs per 4 KiB read (rounds {rounds.Min(r => r[f]):0.0}–{rounds.Max(r => r[f]):0.0})");
        return 0;
    }

    public static int Run(string[] args)
    {
        int runs = int.Parse(Value(args, "--runs") ?? "7");
        long sizeMiB = long.Parse(Value(args, "--size-mib") ?? "1024");
        double modPercent = double.Parse(Value(args, "--mod-percent") ?? "1", System.Globalization.CultureInfo.InvariantCulture);
        string[] cases = (Value(args, "--cases") ?? "seq,random,readers,cold").Split(',');
        string root = Value(args, "--dir") ?? Path.Combine(Path.GetTempPath(), $"archiveemu-bigmount-{Environment.ProcessId}");
        string[] hostArgs = [.. MountReadBenchmark.Option(args, "--fuse", "ArchiveEmu:Fuse"), .. MountReadBenchmark.Option(args, "--passthrough", "ArchiveEmu:Passthrough"),
            .. MountReadBenchmark.Option(args, "--threads", "ArchiveEmu:Threads")];
        try
        {
            int entries = (int)(sizeMiB * (1 << 20) / EntrySize);
            int injectEvery = Math.Max(1, (int)Math.Round(100 / modPercent));
            var clock = Stopwatch.StartNew();
            var setup = Setup.Create(root, entries, injectEvery, args.Contains("--clone"));
            Console.WriteLine($"archive: {setup.Length / (1 << 20)} MiB AFS, {entries} entries, {setup.ModBytes * 100.0 / setup.Length:0.00} % of its bytes " +
                              $"from {setup.ModFiles.Length} loose files; written in {clock.Elapsed.TotalSeconds:0.0} s");
            if (setup.Cloned is { } clone)
                Console.WriteLine($"untouched game file: a clone of the emulated archive, made in {setup.CloneSeconds * 1000:0} ms: {clone.Shared / 1048576.0:0.0} MiB shared " +
                                  $"with the original, {clone.Written / 1048576.0:0.0} MiB written, {clone.Holes / 1048576.0:0.0} MiB holes");
            Console.WriteLine($"user {Environment.UserName}, host options: {(hostArgs.Length == 0 ? "defaults" : string.Join(' ', hostArgs))}, " +
                              $"runs {runs}, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load {File.ReadAllText("/proc/loadavg").Split(' ')[0]}");
            using var host = StartHost(root, "mnt", setup, hostArgs);
            // --also-libfuse: a second host through libfuse, its emulated archive a fourth target in the same rounds.
            using var libfuse = args.Contains("--also-libfuse") ? StartHost(root, "mnt-libfuse", setup, [.. hostArgs, "--ArchiveEmu:Fuse=libfuse"]) : null;
            string[] targets = [setup.Plain, host.Mounted("large.afs"), host.Mounted(Setup.Untouched), .. libfuse is null ? [] : new[] { libfuse.Mounted("large.afs") }];
            clock.Restart();
            VerifySame(setup.Plain, targets[1..]);
            Console.WriteLine($"every target holds the plain file's bytes (checked in {clock.Elapsed.TotalSeconds:0.0} s, which also warmed them)");
            // Cold: every file whose pages a read could come from, the mounted ones included (the FUSE inode's own cache).
            string[] dropped = [setup.Plain, setup.Original, setup.UntouchedSource, .. setup.ModFiles, .. targets[1..]];

            Console.WriteLine();
            Console.WriteLine($"| case (median of {runs} rounds) | plain file | mount, emulated | ratio | mount, untouched game file | ratio |"
                              + (libfuse is null ? "" : " libfuse mount, emulated | ratio |"));
            Console.WriteLine("| --- | --- | --- | --- | --- | --- |" + (libfuse is null ? "" : " --- | --- |"));
            if (cases.Contains("seq"))
            {
                Throughput("sequential 1 MiB reads, warm", Rounds(runs, targets, path => Sequential(path, 1 << 20)));
                Throughput("sequential 128 KiB reads, warm", Rounds(runs, targets, path => Sequential(path, 128 << 10)));
            }
            if (cases.Contains("random"))
                Latency("4 KiB random reads, warm (µs per read)", Rounds(runs, targets, path => RandomReads(path, RandomReadsWarm)));
            if (cases.Contains("readers"))
            {
                Throughput($"{Readers} readers, sequential 1 MiB, warm (aggregate)", Rounds(runs, targets, path => Together(path, 1 << 20)));
                Throughput($"{Readers} readers, 4 KiB random, warm (aggregate)", Rounds(runs, targets, path => TogetherRandom(path)));
            }
            if (cases.Contains("roundtrip")) // the mount's own pages dropped, its sources left warm: each read is a round trip to the host
                Latency("4 KiB random reads, only the mount's pages dropped (µs per read)", Rounds(runs, targets, path => { Drop(targets[1..]); return RandomReads(path, RandomReadsCold); }));
            if (cases.Contains("cold"))
            {
                Throughput("sequential 1 MiB reads, cold", Rounds(runs, targets, path => { Drop(dropped); return Sequential(path, 1 << 20); }));
                Latency("4 KiB random reads, cold (µs per read)", Rounds(runs, targets, path => { Drop(dropped); return RandomReads(path, RandomReadsCold); }));
            }
            return 0;
        }
        finally
        {
            if (!args.Contains("--keep"))
                Directory.Delete(root, recursive: true);
        }
    }

    private static BenchHost StartHost(string root, string mountFolder, Setup setup, string[] hostArgs) => BenchHost.Start(Path.Combine(root, mountFolder),
    [
        $"--ArchiveEmu:Game={setup.Game}", $"--ArchiveEmu:Mods:0={setup.Mod}", $"--ArchiveEmu:Cache={Path.Combine(root, "cache")}",
        "--ArchiveEmu:Merge=never", .. hostArgs,
    ]);

    internal static string? Value(string[] args, string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();

    /// <summary>
    /// One measure per target per round, targets back to back so a burst of load hits them alike, and the order rotated
    /// each round: measured in a fixed order, the target right after the plain file read 0.55–0.67× where the same kind of
    /// target later in the round read 0.76–0.80×.
    /// </summary>
    private static double[][] Rounds(int runs, string[] targets, Func<string, double> measure) =>
        Enumerable.Range(0, runs).Select(round =>
        {
            var figures = new double[targets.Length];
            for (int k = 0; k < targets.Length; k++)
            {
                int target = (round + k) % targets.Length;
                figures[target] = measure(targets[target]);
            }
            return figures;
        }).ToArray();

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted[sorted.Length / 2];
    }

    private static void Throughput(string name, double[][] rounds) => Report(name, rounds, "MB/s", "0");

    private static void Latency(string name, double[][] rounds) => Report(name, rounds, "µs", "0.00");

    /// <summary>Medians per target, and each ratio the median of the per-round ratios to the plain file.</summary>
    private static void Report(string name, double[][] rounds, string unit, string format)
    {
        var line = new System.Text.StringBuilder($"| {name} | {Median(rounds.Select(r => r[0])).ToString(format)} {unit} |");
        for (int target = 1; target < rounds[0].Length; target++)
            line.Append($" {Median(rounds.Select(r => r[target])).ToString(format)} {unit} | {Median(rounds.Select(r => r[target] / r[0])):0.00}× |");
        Console.WriteLine(line);
    }

    /// <summary>MB/s of reading the whole file in <paramref name="readSize"/> reads, open and close included.</summary>
    private static double Sequential(string path, int readSize)
    {
        var buffer = GC.AllocateUninitializedArray<byte>(readSize, pinned: true);
        var clock = Stopwatch.StartNew();
        long total = 0;
        using (var handle = File.OpenHandle(path))
            for (int read; (read = RandomAccess.Read(handle, buffer, total)) > 0;)
                total += read;
        return total / clock.Elapsed.TotalSeconds / 1e6;
    }

    /// <summary>Microseconds per 4 KiB read at seeded random 4 KiB-aligned offsets.</summary>
    private static double RandomReads(string path, int count)
    {
        long blocks = new FileInfo(path).Length / 4096;
        var buffer = GC.AllocateUninitializedArray<byte>(4096, pinned: true);
        var random = new Random(4096);
        using var handle = File.OpenHandle(path, options: FileOptions.RandomAccess);
        var clock = Stopwatch.StartNew();
        for (int i = 0; i < count; i++)
            RandomAccess.Read(handle, buffer, random.NextInt64(blocks) * 4096);
        return clock.Elapsed.TotalMicroseconds / count;
    }

    /// <summary>MB/s of <see cref="Readers"/> threads on one open file, each reading its own quarter in order.</summary>
    private static double Together(string path, int readSize)
    {
        long length = new FileInfo(path).Length, share = (length / Readers + 4095) / 4096 * 4096;
        using var handle = File.OpenHandle(path);
        var clock = Stopwatch.StartNew();
        Parallel.For(0, Readers, new ParallelOptions { MaxDegreeOfParallelism = Readers }, reader =>
        {
            var buffer = GC.AllocateUninitializedArray<byte>(readSize, pinned: true);
            long end = Math.Min(length, (reader + 1) * share);
            for (long at = reader * share; at < end;)
                at += RandomAccess.Read(handle, buffer.AsSpan(0, (int)Math.Min(readSize, end - at)), at);
        });
        return length / clock.Elapsed.TotalSeconds / 1e6;
    }

    /// <summary>MB/s of <see cref="Readers"/> threads each making seeded random 4 KiB reads on one open file.</summary>
    private static double TogetherRandom(string path)
    {
        long blocks = new FileInfo(path).Length / 4096;
        const int each = RandomReadsWarm / Readers;
        using var handle = File.OpenHandle(path, options: FileOptions.RandomAccess);
        var clock = Stopwatch.StartNew();
        Parallel.For(0, Readers, new ParallelOptions { MaxDegreeOfParallelism = Readers }, reader =>
        {
            var buffer = GC.AllocateUninitializedArray<byte>(4096, pinned: true);
            var random = new Random(4096 + reader);
            for (int i = 0; i < each; i++)
                RandomAccess.Read(handle, buffer, random.NextInt64(blocks) * 4096);
        });
        return each * Readers * 4096.0 / clock.Elapsed.TotalSeconds / 1e6;
    }

    /// <summary>
    /// Checks every target against the plain file, the same MiB of each in turn: this first read fills the mounted files'
    /// page cache, and filled one after another the file filled first read 0.55–0.67× warm where the next read 0.76–0.85×
    /// (where the kernel puts a file's 4 KiB pages depends on when they are filled); interleaved, they are filled alike.
    /// </summary>
    private static void VerifySame(string expected, string[] targets)
    {
        using var plain = File.OpenHandle(expected);
        long length = RandomAccess.GetLength(plain);
        var handles = targets.Select(t => File.OpenHandle(t)).ToArray();
        try
        {
            for (int t = 0; t < targets.Length; t++)
                if (RandomAccess.GetLength(handles[t]) != length)
                    throw new InvalidOperationException($"{targets[t]}: {RandomAccess.GetLength(handles[t])} bytes, the plain file has {length}");
            var left = new byte[1 << 20];
            var right = new byte[1 << 20];
            for (long at = 0; at < length; at += left.Length)
            {
                int n = RandomAccess.Read(plain, left, at);
                for (int t = 0; t < targets.Length; t++)
                    if (RandomAccess.Read(handles[t], right.AsSpan(0, n), at) != n || !left.AsSpan(0, n).SequenceEqual(right.AsSpan(0, n)))
                        throw new InvalidOperationException($"{targets[t]}: differs from the plain file in the MiB at {at}");
            }
        }
        finally
        {
            foreach (var handle in handles)
                handle.Dispose();
        }
    }

    /// <summary>
    /// Drops the files' pages. As root the whole page cache too: an emulated archive passed through as a clone is read from
    /// a file with no name, which no path reaches and whose pages fadvise through the mount does not drop.
    /// </summary>
    private static void Drop(string[] paths)
    {
        if (Environment.UserName == "root")
            File.WriteAllText("/proc/sys/vm/drop_caches", "1");
        DropEach(paths);
    }

    /// <summary>Drops each file's pages with posix_fadvise(DONTNEED), as any user may (a mounted file's own cache included).</summary>
    internal static void DropEach(IEnumerable<string> paths)
    {
        foreach (var path in paths)
        {
            using var handle = File.OpenHandle(path);
            int error = Core.Interop.LibC.PosixFadvise((int)handle.DangerousGetHandle(), 0, 0, Core.Interop.LibC.POSIX_FADV_DONTNEED);
            if (error != 0)
                throw new IOException($"{path}: posix_fadvise(DONTNEED) failed, errno {error}");
        }
    }


    /// <summary>The game (the AFS and an untouched copy of the emulated bytes), the mod, the plain file.</summary>
    private sealed record Setup(string Game, string Mod, string Original, string Plain, string UntouchedSource, string[] ModFiles, long Length, long ModBytes,
        Core.RealFiles.CloneResult? Cloned, double CloneSeconds)
    {
        public const string Untouched = "untouched.bin";

        public static Setup Create(string root, int entries, int injectEvery, bool clone)
        {
            string game = Path.Combine(root, "game");
            LargeAfsFixture.Write(game, entries, EntrySize, injectEvery, out string original, out _);
            string mod = Path.Combine(root, "mod");
            Directory.CreateDirectory(mod);
            Directory.Move(Path.Combine(game, "mod"), Path.Combine(mod, "large.afs")); // mod/large.afs/N.dds replaces entry N
            string[] modFiles = Directory.GetFiles(Path.Combine(mod, "large.afs"));
            string plain = Path.Combine(root, "plain.bin");
            using var emulated = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(game, [mod])).OpenFile("large.afs");
            using (var output = new FileStream(plain, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
                emulated.OpenStream().CopyTo(output, 1 << 20);
            string untouched = Path.Combine(game, Untouched);
            Core.RealFiles.CloneResult? cloned = null;
            var clock = Stopwatch.StartNew();
            if (clone && OperatingSystem.IsLinux())
                cloned = Core.RealFiles.ArchiveClone.Write(emulated, original, untouched);
            else
                File.Copy(plain, untouched);
            return new Setup(game, mod, original, plain, untouched, modFiles, new FileInfo(plain).Length, modFiles.Sum(f => new FileInfo(f).Length),
                cloned, clock.Elapsed.TotalSeconds);
        }
    }
}
