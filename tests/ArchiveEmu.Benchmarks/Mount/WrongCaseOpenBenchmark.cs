using System.Diagnostics;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Issue 19's benchmark: opening a file by a wrong-case name in a folder of 10,000 files through the mount, with
/// <c>--ignore-case</c> (the host finds it) and without, where a Wine/Proton game gets "No such file" and Wine then lists
/// the folder, compares each name case-insensitively until one matches and opens that one (modelled here the same way),
/// against an open by the right name. Every open uses a name not looked up before, so each is a real FUSE lookup, not the
/// kernel's dentry cache; names are spread over the folder (a scan stops at its match). Medians over rounds, ratios within one.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- wrongcase [--runs N] [--opens N] [--dir DIR] [--fuse kernel|libfuse]</c>
/// </summary>
internal static class WrongCaseOpenBenchmark
{
    private const int Files = 10_000;
    private const int Stride = 7919; // prime, so i * Stride % Files visits every file once, spread over the folder

    public static int Run(string[] args)
    {
        int runs = args.SkipWhile(a => a != "--runs").Skip(1).Select(int.Parse).FirstOrDefault(7);
        int opens = args.SkipWhile(a => a != "--opens").Skip(1).Select(int.Parse).FirstOrDefault(50);
        string root = args.SkipWhile(a => a != "--dir").Skip(1).FirstOrDefault()
            ?? Path.Combine(Path.GetTempPath(), $"archiveemu-wrongcase-bench-{Environment.ProcessId}");
        string[] fuse = [.. args.SkipWhile(a => a != "--fuse").Skip(1).Take(1).Select(f => $"--ArchiveEmu:Fuse={f}")];
        if (1 + runs * 4 * opens > Files)
        {
            Console.Error.WriteLine($"wrongcase benchmark: {runs} rounds of 4 × {opens} opens need more than {Files} fresh names");
            return 1;
        }
        try
        {
            string game = Path.Combine(root, "game");
            Directory.CreateDirectory(Path.Combine(game, "data"));
            for (int i = 0; i < Files; i++)
                File.WriteAllText(Path.Combine(game, "data", Name(i)), $"game file {i}\n");
            string[] hostArgs = [$"--ArchiveEmu:Game={game}", "--ArchiveEmu:NoCache=true", .. fuse];
            Console.WriteLine($"folder: {Files:N0} files; {opens} opens per case per round, {runs} rounds; host options: {string.Join(' ', hostArgs.Skip(2).DefaultIfEmpty("defaults"))}");
            using var plain = BenchHost.Start(Path.Combine(root, "mnt-plain"), hostArgs);
            using var folded = BenchHost.Start(Path.Combine(root, "mnt-ignore-case"), [.. hostArgs, "--ArchiveEmu:IgnoreCase=true"]);

            int next = 0;
            int Fresh() => next++ * Stride % Files;
            var first = Stopwatch.StartNew();
            OpenAndClose(folded.Mounted(Wrong(Fresh()))); // the folder's first wrong-case lookup lists it and builds its index
            double firstMs = first.Elapsed.TotalMilliseconds;

            Action[] cases =
            [
                () => OpenAndClose(plain.Mounted(Real(Fresh()))),
                () => OpenAndClose(folded.Mounted(Real(Fresh()))),
                () => OpenAndClose(folded.Mounted(Wrong(Fresh()))),
                () => ScanThenOpen(plain.MountPoint, Wrong(Fresh())),
            ];
            var rounds = new List<double[]>();
            for (int round = 0; round < runs; round++)
            {
                var times = new double[cases.Length];
                for (int i = 0; i < cases.Length; i++) // each round starts at another case: no case always follows the slow scan
                {
                    int c = (round + i) % cases.Length;
                    times[c] = Microseconds(opens, cases[c]);
                }
                rounds.Add(times);
            }

            Console.WriteLine();
            Console.WriteLine($"first wrong-case open in the folder with --ignore-case (lists it, builds the index): {firstMs:0.0} ms");
            Console.WriteLine();
            // Two columns per mount: the two host processes differ by up to 2× on right names alone (a control run with the
            // option off on both showed it), so the option's own cost is read within its mount.
            Console.WriteLine($"| open of a name not yet looked up (median of {runs} rounds, µs per open) | right name, no option | right name, --ignore-case | wrong case, --ignore-case | wrong / right, same mount | wrong case without the option: failed open, scan, open | scan / --ignore-case |");
            Console.WriteLine("| --- | --- | --- | --- | --- | --- | --- |");
            Console.WriteLine($"| folder of {Files:N0} files | {Median(rounds, r => r[0]):0} | {Median(rounds, r => r[1]):0} | {Median(rounds, r => r[2]):0} | {Median(rounds, r => r[2] / r[1]):0.00}× | {Median(rounds, r => r[3]):0} | {Median(rounds, r => r[3] / r[2]):0}× |");
            return 0;
        }
        finally
        {
            if (!args.Contains("--keep") && Directory.Exists(root))
                Directory.Delete(root, recursive: true);
        }
    }

    private static string Name(int i) => $"file_{i:D5}.dat";

    private static string Real(int i) => $"data/{Name(i)}";

    private static string Wrong(int i) => $"data/{Name(i).ToUpperInvariant()}";

    private static void OpenAndClose(string path) => File.OpenHandle(path).Dispose();

    /// <summary>What Wine does when the exact name is not there: the failed attempt, then a listing compared name by name.</summary>
    private static void ScanThenOpen(string mountPoint, string wrong)
    {
        string asked = Path.Combine(mountPoint, wrong);
        if (File.Exists(asked))
            throw new InvalidOperationException($"{asked}: found without --ignore-case");
        string folder = Path.GetDirectoryName(asked)!, wanted = Path.GetFileName(asked);
        foreach (var name in Directory.EnumerateFileSystemEntries(folder).Select(Path.GetFileName))
            if (string.Equals(name, wanted, StringComparison.OrdinalIgnoreCase))
            {
                OpenAndClose(Path.Combine(folder, name!));
                return;
            }
        throw new InvalidOperationException($"{asked}: no name in {folder} matches");
    }

    private static double Microseconds(int count, Action open)
    {
        var clock = Stopwatch.StartNew();
        for (int i = 0; i < count; i++)
            open();
        return clock.Elapsed.TotalMicroseconds / count;
    }

    private static double Median(List<double[]> rounds, Func<double[], double> value)
    {
        var sorted = rounds.Select(value).Order().ToArray();
        return sorted[sorted.Length / 2];
    }
}
