using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Benchmarks.Persona;

/// <summary>
/// Issue 31's benchmark at Persona 5 Royal's scale (docs/BENCHMARKS.md, "P5R scale"): a game of two 40,000-entry CPKs and 50
/// Reloaded-II mods in Persona Essentials' layouts (<see cref="P5rScaleGame"/>), measured with the Release-built CLI, each
/// figure in its own process: <c>build --no-cache</c>, <c>build</c> with layouts cached, mount ready (process start to a
/// listable mount point), the first <c>stat</c> and first 4 KiB read of a modded CPK through the mount, and peak memory.
/// <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- p5r-scale [--rounds N] [--dir DIR] [--cli PATH]
/// [--entries N] [--mods N] [--files N] [--mix persona|crifs-only]</c> (crifs-only: every mod file in a CRIFsV2Hook/CPK folder,
/// the set issue 31's "today" figures came from); build the CLI first: <c>dotnet build src/ArchiveEmu.Cli -c Release</c>.
/// </summary>
internal static class P5rScaleBenchmark
{
    private const string ModdedCpk = "CPK/BASE.CPK";

    public static int Run(string[] args)
    {
        int rounds = Number(args, "--rounds", 5);
        bool criFsOnly = Option(args, "--mix") == "crifs-only";
        var scale = new P5rScaleGame.Scale(Number(args, "--entries", 40_000), Number(args, "--mods", 50), Number(args, "--files", 20), CriFsOnly: criFsOnly);
        string dir = Option(args, "--dir") ?? Path.Combine(Path.GetTempPath(), "archiveemu-p5r-scale");
        string cli = Option(args, "--cli") ?? DefaultCli();
        if (!File.Exists(cli))
        {
            Console.Error.WriteLine($"p5r-scale: {cli} not found; build it first: dotnet build src/ArchiveEmu.Cli -c Release");
            return 1;
        }

        var clock = Stopwatch.StartNew();
        var game = P5rScaleGame.Open(Path.Combine(dir, criFsOnly ? "data-crifs-only" : "data"), scale);
        Console.WriteLine($"game {game.Game}: {string.Join(", ", game.CpkPaths.Select(c => $"{c.Key} {c.Value.Count} entries"))}; "
            + $"{game.Mods.Count} mods, {game.ModFileCount} mod files; {(game.Written ? "written" : "reused")} in {clock.Elapsed.TotalSeconds:F1} s");
        Console.WriteLine($"cli {cli}; {Environment.ProcessorCount} cores; load {File.ReadAllText("/proc/loadavg").Trim()}");
        var files = game.Mods.SelectMany(m => m.Files.Select(f => (Layout(f), Path.Combine(game.ModsFolder, m.Name, f)))).ToList();
        return Measure(new Measured(dir, cli, rounds, game.Game, [.. game.ModFolders], ModdedCpk, game.CpkPaths.Count, files));
    }

    /// <summary>What <see cref="Measure"/> times: the game and its mods, the CPK whose stat and first read are timed, and every mod file with its layout.</summary>
    internal sealed record Measured(string Dir, string Cli, int Rounds, string Game, string[] Mods, string ModdedCpk, int CpkCount,
        IReadOnlyList<(string Layout, string Full)> Files);

    /// <summary>The figures of <paramref name="m"/>, each in its own process, <see cref="Measured.Rounds"/> times, printed as a table.</summary>
    internal static int Measure(Measured m)
    {
        var (dir, cli, rounds) = (m.Dir, m.Cli, m.Rounds);
        string[] gameArgs = ["--game", m.Game, .. m.Mods.SelectMany(mod => new[] { "--mod", mod })];

        var first = CliRun.Start(cli, ["build", "--no-cache", "--json", .. gameArgs]); // warms the page cache; its report says what applied
        ReportApplied(m.Files, first);

        var figures = new Dictionary<string, List<double>>();
        void Add(string name, double value) => (figures.TryGetValue(name, out var list) ? list : figures[name] = []).Add(value);
        for (int round = 0; round < rounds; round++)
        {
            Add("archiveemu --version (the process's floor)", CliRun.Start(cli, ["--version"]).Milliseconds);
            var noCache = CliRun.Start(cli, ["build", "--no-cache", "--json", .. gameArgs]);
            Add("build --no-cache", noCache.Milliseconds);
            Add("  of which routes resolved (no cache)", RouteMs(noCache));
            Add("  of which archives built (no cache)", ArchiveMs(noCache, layoutsFromCache: false));
            Add("peak memory, build --no-cache", noCache.PeakKiB / 1024.0);

            string cache = Path.Combine(dir, $"cache-{round}");
            if (Directory.Exists(cache))
                Directory.Delete(cache, recursive: true);
            var storing = CliRun.Start(cli, ["build", "--cache", cache, "--json", .. gameArgs]);
            Add("build storing layouts (fresh cache)", storing.Milliseconds);
            var cached = CliRun.Start(cli, ["build", "--cache", cache, "--json", .. gameArgs]);
            Add("build, layouts cached", cached.Milliseconds);
            Add("  of which routes resolved (cached)", RouteMs(cached));
            Add("  of which archives built (cached)", ArchiveMs(cached, layoutsFromCache: true));
            Add("peak memory, build with layouts cached", cached.PeakKiB / 1024.0);

            using (var mount = CliMount.Start(cli, ["--cache", cache, .. gameArgs], Path.Combine(dir, "mnt")))
            {
                Add("mount ready (start to a listable mount)", mount.ReadyMs);
                string cpk = Path.Combine(mount.MountPoint, m.ModdedCpk);
                var step = Stopwatch.StartNew();
                long length = new FileInfo(cpk).Length; // one stat
                Add("first stat of the modded CPK", step.Elapsed.TotalMilliseconds);
                step.Restart();
                using var handle = File.OpenHandle(cpk, options: FileOptions.RandomAccess);
                Add("  first open", step.Elapsed.TotalMilliseconds);
                var buffer = new byte[4096];
                step.Restart();
                int read = RandomAccess.Read(handle, buffer, 0);
                Add("first 4 KiB read (offset 0)", step.Elapsed.TotalMilliseconds);
                Add("first open and 4 KiB read", figures["  first open"][^1] + step.Elapsed.TotalMilliseconds);
                if (read != buffer.Length || length < buffer.Length)
                    throw new InvalidOperationException($"{cpk}: read {read} bytes of a {length}-byte file");
                Add("peak memory, mount after the read", mount.PeakKiB() / 1024.0);
            }
            // The same mount without mods (nothing emulated, every file passed through) after the same reads: what the
            // modded CPKs add to the host's memory, per CPK (issue 34: under 50 MB each).
            string noMod = Directory.CreateDirectory(Path.Combine(dir, "empty-mod")).FullName; // mount wants a mod: one that holds nothing
            using (var bare = CliMount.Start(cli, ["--cache", cache, "--game", m.Game, "--mod", noMod], Path.Combine(dir, "mnt")))
            {
                string cpk = Path.Combine(bare.MountPoint, m.ModdedCpk);
                using (var handle = File.OpenHandle(cpk, options: FileOptions.RandomAccess))
                    RandomAccess.Read(handle, new byte[4096], 0);
                double modded = figures["peak memory, mount after the read"][^1];
                Add("peak memory, the same mount without mods", bare.PeakKiB() / 1024.0);
                Add("  added per modded CPK", (modded - bare.PeakKiB() / 1024.0) / m.CpkCount);
            }
            Console.WriteLine($"round {round + 1}/{rounds} done (load {File.ReadAllText("/proc/loadavg").Split(' ')[0]})");
            Directory.Delete(cache, recursive: true);
        }
        Report(figures, rounds);
        return 0;
    }

    // The issue's targets, per figure.
    private static readonly Dictionary<string, (double Limit, string Text)> Targets = new()
    {
        ["build --no-cache"] = (2500, "< 2.5 s"),
        ["build, layouts cached"] = (500, "< 0.5 s"),
        ["mount ready (start to a listable mount)"] = (1000, "< 1 s"),
        ["first stat of the modded CPK"] = (50, "< 50 ms"),
        ["first 4 KiB read (offset 0)"] = (5, "< 5 ms"),
        ["first open and 4 KiB read"] = (5, "< 5 ms"),
        ["peak memory, build --no-cache"] = (200, "< 200 MB"),
        ["peak memory, build with layouts cached"] = (200, "< 200 MB"),
        ["peak memory, mount after the read"] = (200, "< 200 MB"),
        ["  added per modded CPK"] = (50, "< 50 MB"),
    };

    private static void Report(Dictionary<string, List<double>> figures, int rounds)
    {
        Console.WriteLine();
        Console.WriteLine($"| figure ({rounds} rounds, each in its own process) | target | median | min–max | met |");
        Console.WriteLine("| --- | --- | --- | --- | --- |");
        foreach (var (name, values) in figures)
        {
            var sorted = values.Order().ToArray();
            double median = sorted[sorted.Length / 2];
            string unit = name.StartsWith("peak", StringComparison.Ordinal) || name.Contains("added per", StringComparison.Ordinal) ? "MiB" : "ms";
            string met = Targets.TryGetValue(name, out var t) ? (median < t.Limit ? "yes" : "no") : "—";
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {name} | {(Targets.TryGetValue(name, out var target) ? target.Text : "—")} | {median:F2} {unit} | {sorted[0]:F2}–{sorted[^1]:F2} | {met} |"));
        }
    }

    /// <summary>
    /// What the report says applied, per layout: mod files named as an input of an archive (a CPK entry, or an entry nested in
    /// one), and those served as whole game files instead (for these mods, a sign a layout was not recognised).
    /// </summary>
    private static void ReportApplied(IReadOnlyList<(string Layout, string Full)> files, CliRun build)
    {
        Console.WriteLine($"build --no-cache --json: exit {build.ExitCode}, {build.Milliseconds:F0} ms");
        if (build.ExitCode != 0)
            Console.WriteLine($"  stderr: {build.StdErr.Trim()}");
        using var report = JsonDocument.Parse(build.StdOut);
        var root = report.RootElement;
        HashSet<string> Sources(IEnumerable<JsonElement> items) =>
            items.Select(i => i.TryGetProperty("source", out var source) ? source.GetString() : null).OfType<string>().ToHashSet();
        // An archive's own inputs, and those of the archives inside its entries (FEF routes into a PAK in a CPK), at every depth.
        static IEnumerable<JsonElement> Inputs(JsonElement archive) => archive.GetProperty("inputs").EnumerateArray()
            .Concat(archive.TryGetProperty("nested", out var nested) ? nested.EnumerateArray().SelectMany(Inputs) : []);
        var intoArchives = Sources(root.GetProperty("archives").EnumerateArray().SelectMany(Inputs));
        var asGameFiles = Sources(root.GetProperty("overrides").EnumerateArray());
        Console.WriteLine($"mod files applied into archives: {files.Count(f => intoArchives.Contains(f.Full))} of {files.Count}; "
            + $"served as whole game files: {files.Count(f => asGameFiles.Contains(f.Full))}; "
            + $"{root.GetProperty("archives").GetArrayLength()} archives, {root.GetProperty("warnings").GetArrayLength()} warnings");
        foreach (var layout in files.GroupBy(f => f.Layout).OrderBy(g => g.Key, StringComparer.Ordinal))
            Console.WriteLine($"  {layout.Key,-22} {layout.Count(f => intoArchives.Contains(f.Full)),4} into archives, "
                + $"{layout.Count(f => asGameFiles.Contains(f.Full)),4} as game files, of {layout.Count(),4}");
        foreach (var warning in root.GetProperty("warnings").EnumerateArray().Select(w => w.GetString() ?? "").DistinctBy(WarningKind).Take(8))
            Console.WriteLine($"  warning: {Shorten(warning)}");
    }

    // Warnings that differ only in the mod they name are shown once.
    private static string WarningKind(string warning) => System.Text.RegularExpressions.Regex.Replace(warning, "/mods/[^/]+/", "/mods/*/");

    // "FEmulator/PAK", "P5REssentials/CPK", "FEmulator/L10N": the first two folders of a mod file's path.
    internal static string Layout(string modFile) => string.Join('/', modFile.Split('/').Take(2));

    private static string Shorten(string line) => line.Length <= 200 ? line : line[..200] + "…";

    private static double RouteMs(CliRun build)
    {
        using var report = JsonDocument.Parse(build.StdOut);
        return report.RootElement.GetProperty("route_ms").GetDouble();
    }

    /// <summary>The report's build_ms summed over the archives, checking each layout and the route plan came from where the run says.</summary>
    private static double ArchiveMs(CliRun build, bool layoutsFromCache)
    {
        using var report = JsonDocument.Parse(build.StdOut);
        if (report.RootElement.GetProperty("routes_from_cache").GetBoolean() != layoutsFromCache)
            throw new InvalidOperationException($"a build expected to {(layoutsFromCache ? "read the kept route plan" : "resolve every route")} did not");
        var archives = report.RootElement.GetProperty("archives").EnumerateArray().ToList();
        if (archives.Any(a => a.GetProperty("layout_from_cache").GetBoolean() != layoutsFromCache))
            throw new InvalidOperationException($"a build expected to {(layoutsFromCache ? "restore every layout from the cache" : "parse every original")} did not");
        return archives.Sum(a => a.GetProperty("build_ms").GetDouble());
    }

    // The apphost of `dotnet build src/ArchiveEmu.Cli -c Release`, found from this benchmark's own output folder.
    internal static string DefaultCli()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
            if (File.Exists(Path.Combine(folder.FullName, "ArchiveEmu.sln")))
                return Path.Combine(folder.FullName, "src", "ArchiveEmu.Cli", "bin", "Release", "net10.0", "archiveemu");
        return "archiveemu";
    }

    internal static string? Option(string[] args, string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();

    internal static int Number(string[] args, string name, int fallback) =>
        Option(args, name) is { } value ? int.Parse(value, CultureInfo.InvariantCulture) : fallback;
}
