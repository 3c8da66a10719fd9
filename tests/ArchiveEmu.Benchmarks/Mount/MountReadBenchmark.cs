using System.Diagnostics;
using ArchiveEmu.Benchmarks.Formats;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Issue 6's mount benchmark, a harness rather than a BenchmarkDotNet class (it needs a mounted host, root for
/// drop_caches, and cold runs): sequential and 4 KiB random reads of a 128 MiB AFS through the FUSE mount,
/// emulated and merged, and of an untouched game file of the same size through the same mount, against a plain
/// file holding the same bytes, warm and cold. <c>--fuse</c> and <c>--passthrough</c> set the host's way of serving.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- mount [--runs N] [--dir DIR] [--keep] [--fuse kernel|libfuse] [--passthrough true|false]</c>
/// </summary>
internal static class MountReadBenchmark
{
    private const int Entries = 512, EntrySize = 256 * 1024, InjectEvery = 16;
    private const int RandomReadsCold = 2_000, RandomReadsWarm = 50_000;

    public static int Run(string[] args)
    {
        int runs = args.SkipWhile(a => a != "--runs").Skip(1).Select(int.Parse).FirstOrDefault(3);
        string root = args.SkipWhile(a => a != "--dir").Skip(1).FirstOrDefault()
            ?? Path.Combine(Path.GetTempPath(), $"archiveemu-mount-bench-{Environment.ProcessId}");
        if (!File.Exists("/proc/sys/vm/drop_caches") || Environment.UserName != "root")
        {
            Console.Error.WriteLine("mount benchmark: cold runs drop the page cache (/proc/sys/vm/drop_caches), which needs root");
            return 1;
        }
        try
        {
            var setup = BenchSetup.Create(root, Entries, EntrySize, InjectEvery);
            Console.WriteLine($"archive: {setup.Plain.Length / (1 << 20)} MiB AFS, {Entries} entries, {Entries / InjectEvery} replaced by loose files; runs {runs}");
            // --fuse kernel|libfuse and --passthrough true|false pick how the host serves (default: as it would itself).
            string[] hostArgs = [.. Option(args, "--fuse", "ArchiveEmu:Fuse"), .. Option(args, "--passthrough", "ArchiveEmu:Passthrough")];
            Console.WriteLine($"host options: {(hostArgs.Length == 0 ? "defaults" : string.Join(' ', hostArgs))}");
            using var emulated = setup.Mount("never", hostArgs);
            using var merged = setup.Mount("always", hostArgs);
            // The last target is a file no mod touches, which the mount passes through to the game folder's own file.
            string[] targets = [setup.PlainPath, emulated.ArchivePath, merged.ArchivePath, emulated.Mounted(BenchSetup.Untouched)];
            foreach (var path in targets.Skip(1))
                if (new FileInfo(path).Length != setup.Plain.Length)
                    throw new InvalidOperationException($"{path}: not the plain file's {setup.Plain.Length} bytes");

            Console.WriteLine();
            Console.WriteLine($"| case (median of {runs} rounds) | plain file | mount, emulated | ratio | mount, merged | ratio | mount, untouched game file | ratio |");
            Console.WriteLine("| --- | --- | --- | --- | --- | --- | --- | --- |");
            Report("sequential 1 MiB reads, cold", Rounds(runs, targets, path => { DropCaches(); return Sequential(path, 1 << 20); }));
            Report("sequential 1 MiB reads, warm", Rounds(runs, targets, path => Sequential(path, 1 << 20), warmUp: true));
            Report("sequential 128 KiB reads, warm", Rounds(runs, targets, path => Sequential(path, 128 << 10), warmUp: true));
            Report("4 KiB random reads, cold", Rounds(runs, targets, path => { DropCaches(); return RandomReads(path, RandomReadsCold); }));
            Report("4 KiB random reads, warm", Rounds(runs, targets, path => RandomReads(path, RandomReadsWarm), warmUp: true));
            return 0;
        }
        finally
        {
            if (!args.Contains("--keep"))
                Directory.Delete(root, recursive: true);
        }
    }

    /// <summary>A host setting from a benchmark option: <c>--fuse X</c> gives <c>--ArchiveEmu:Fuse=X</c>; nothing when not given.</summary>
    internal static IEnumerable<string> Option(string[] args, string name, string key) =>
        args.SkipWhile(a => a != name).Skip(1).Take(1).Select(value => $"--{key}={value}");

    /// <summary>
    /// MB/s per target and run. Targets are measured back to back within each round, so a burst of load on
    /// this shared machine hits all three alike; ratios are taken within a round.
    /// </summary>
    private static double[][] Rounds(int runs, string[] targets, Func<string, double> measure, bool warmUp = false)
    {
        if (warmUp)
            foreach (var path in targets)
                Sequential(path, 1 << 20);
        return Enumerable.Range(0, runs).Select(_ => targets.Select(measure).ToArray()).ToArray();
    }

    private static void Report(string name, double[][] rounds)
    {
        static double Median(IEnumerable<double> values)
        {
            var sorted = values.Order().ToArray();
            return sorted[sorted.Length / 2];
        }
        var line = new System.Text.StringBuilder($"| {name} | {Median(rounds.Select(r => r[0])):0} MB/s |");
        for (int target = 1; target < rounds[0].Length; target++)
            line.Append($" {Median(rounds.Select(r => r[target])):0} MB/s | {Median(rounds.Select(r => r[target] / r[0])):0.00}× |");
        Console.WriteLine(line);
    }

    /// <summary>MB/s of reading the whole file in <paramref name="readSize"/> reads, open and close included.</summary>
    private static double Sequential(string path, int readSize)
    {
        long length = new FileInfo(path).Length;
        var buffer = new byte[readSize];
        var clock = Stopwatch.StartNew();
        using (var handle = File.OpenHandle(path))
        {
            long at = 0;
            for (int read; (read = RandomAccess.Read(handle, buffer, at)) > 0;)
                at += read;
            if (at != length)
                throw new InvalidOperationException($"{path}: read {at} of {length} bytes");
        }
        return length / clock.Elapsed.TotalSeconds / 1e6;
    }

    /// <summary>MB/s of <paramref name="count"/> 4 KiB reads at seeded random 4 KiB-aligned offsets.</summary>
    private static double RandomReads(string path, int count)
    {
        long length = new FileInfo(path).Length;
        var buffer = new byte[4096];
        var random = new Random(4096);
        long blocks = length / 4096;
        var clock = Stopwatch.StartNew();
        using (var handle = File.OpenHandle(path, options: FileOptions.RandomAccess))
            for (int i = 0; i < count; i++)
                RandomAccess.Read(handle, buffer, random.NextInt64(blocks) * 4096);
        return count * 4096.0 / clock.Elapsed.TotalSeconds / 1e6;
    }

    private static void DropCaches()
    {
        using (var sync = Process.Start("sync"))
            sync.WaitForExit();
        File.WriteAllText("/proc/sys/vm/drop_caches", "3");
    }

    /// <summary>The benchmark's files: game with the AFS, a mod replacing every 16th entry, the plain copy, a cache folder.</summary>
    private sealed record BenchSetup(string Root, string Game, string Mod, string PlainPath, FileInfo Plain)
    {
        public const string Untouched = "untouched.bin";

        public static BenchSetup Create(string root, int entries, int entrySize, int injectEvery)
        {
            string game = Path.Combine(root, "game");
            LargeAfsFixture.Write(game, entries, entrySize, injectEvery, out _, out _);
            string mod = Path.Combine(root, "mod");
            Directory.CreateDirectory(mod);
            Directory.Move(Path.Combine(game, "mod"), Path.Combine(mod, "large.afs")); // mod/large.afs/N.dds replaces entry N
            string plain = Path.Combine(root, "plain.bin");
            using (var emulated = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(game, [mod])).OpenFile("large.afs"))
            using (var output = new FileStream(plain, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
                emulated.OpenStream().CopyTo(output, 1 << 20);
            File.Copy(plain, Path.Combine(game, Untouched));
            return new BenchSetup(root, game, mod, plain, new FileInfo(plain));
        }

        public MountedHost Mount(string merge, string[] hostArgs) => MountedHost.Start(this, merge, hostArgs);
    }

    /// <summary>The host serving the benchmark's game with its archive built (and for "always" merged) before any timing.</summary>
    private sealed class MountedHost : IDisposable
    {
        private readonly BenchHost _host;

        private MountedHost(BenchHost host) => _host = host;

        public string ArchivePath => Mounted("large.afs");

        public string Mounted(string relative) => _host.Mounted(relative);

        public static MountedHost Start(BenchSetup setup, string merge, string[] hostArgs)
        {
            var host = new MountedHost(BenchHost.Start(Path.Combine(setup.Root, $"mnt-{merge}"),
            [
                $"--ArchiveEmu:Game={setup.Game}", $"--ArchiveEmu:Mods:0={setup.Mod}",
                $"--ArchiveEmu:Cache={Path.Combine(setup.Root, "cache")}", $"--ArchiveEmu:Merge={merge}", .. hostArgs,
            ]));
            _ = new FileInfo(host.ArchivePath).Length; // first stat builds (and for "always" merges) the archive, outside the timings
            File.OpenHandle(host.ArchivePath).Dispose(); // so does the first open (a merged archive's copy for passthrough)
            return host;
        }

        public void Dispose() => _host.Dispose();
    }
}
