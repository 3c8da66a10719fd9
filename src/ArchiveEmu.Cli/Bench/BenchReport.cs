using System.Text.Json.Nodes;
using ArchiveEmu.Cli.Output;

namespace ArchiveEmu.Cli.Bench;

/// <summary>What <c>bench</c> prints (a table per scenario) and writes with <c>--json</c>.</summary>
internal sealed class BenchReport(MachineInfo machine, BenchOptions options, IReadOnlyList<ScenarioResult> scenarios)
{
    public const string TextureData =
        "DDS files (128-byte header, DXT1/DXT5) whose BC1/BC3 blocks encode a smooth image plus noise: endpoints follow the image, indices its gradient, one pixel in four nudged";

    private const string EstimateNote =
        "estimate, not a measurement: the recorded read trace priced with the SOLID article's device figures (throughput + cost per piece)";

    // Why an estimate row can contradict its measured row: the model has no CPU in it.
    private const string EstimateLimit =
        "it prices device transfer and pieces only, not CPU work such as LZ4 decoding, so merged-lz4 can pass 1.00x here while it measures far below";

    /// <summary>
    /// The tables per scenario (or one line per path with <paramref name="brief"/>), the legend with
    /// <paramref name="explain"/>, then the verdict; without <paramref name="explain"/> a last line says where the rest is.
    /// </summary>
    public void WriteText(TextWriter o, bool brief = false, bool explain = false)
    {
        o.WriteLine($"machine: {machine.Describe()}");
        o.WriteLine($"{options.Runs} runs per path, interleaved; {(options.Cold ? ColdText() : "warm (files in the page cache)")}; MB/s = 10^6 bytes/s, medians");
        if (brief)
            BriefReport.Write(o, scenarios);
        else
            foreach (var s in scenarios)
                WriteScenario(o, s);
        if (explain && scenarios.Count > 0)
            BenchLegend.Write(o, scenarios[0].Builds);
        o.WriteLine();
        foreach (var line in new BenchVerdict(options, scenarios).Lines())
            o.WriteLine(line);
        if (!explain)
            o.WriteLine(brief ? "(--explain: what every figure and name means)" : "(--explain: what every column and name means; --brief: one line per path)");
    }

    private string ColdText() => options.DropAllCaches
        ? "cold: /proc/sys/vm/drop_caches before every run"
        : "cold: every involved file's pages dropped (posix_fadvise DONTNEED) before every run";

    private void WriteScenario(TextWriter o, ScenarioResult s)
    {
        o.WriteLine();
        o.WriteLine($"{s.Scenario.Name} ({s.Scenario.Summary}): {Units.Bytes(s.ArchiveBytes)}, {s.Scenario.EntryCount} entries, "
            + $"{s.Scenario.InjectedCount} injected, {s.SourceFiles} source files, {(s.Cold ? "cold" : "warm")}, {s.Seconds:F1} s");
        // Two spaces or more between column headers: the legend test splits them there.
        o.WriteLine($"  {"measured, whole read",-20} {"MB/s",8} {"min",8} {"max",8} {"xsolid",7} {"range",10} {"opens",6} {"reads",6} {"pieces",7} {"open ms",8} {"peak MiB",9}  |  {"4K random MB/s",14} {"xsolid",7} {"reads",6}  |  {"entries MB/s",12} {"xsolid",7}");
        foreach (var p in s.Paths)
        {
            var whole = Samples.Of(p.WholeMbps);
            string random = $"{Samples.MedianOf(p.RandomMbps),14:F1} {Samples.MedianOf(p.RandomRatioToSolid),7:F2} {p.RandomTrace?.Reads,6}";
            var ratio = Samples.Of(p.WholeRatioToSolid);
            o.WriteLine($"  {p.Name,-20} {whole.Median,8:F0} {whole.Min,8:F0} {whole.Max,8:F0} {ratio.Median,7:F2} {ratio.Range(),10} "
                + $"{p.Opens,6} {p.WholeTrace?.Reads,6} {p.WholeTrace?.Pieces,7} {Samples.MedianOf(p.OpenMs),8:F1} {(p.PeakRssDelta ?? 0) / 1048576.0,9:F1}  |  {random}"
                + $"  |  {Samples.MedianOf(p.EntriesMbps),12:F1} {Samples.MedianOf(p.EntriesRatioToSolid),7:F2}");
        }
        o.WriteLine($"  {EstimateNote};");
        o.WriteLine($"  {EstimateLimit}:");
        o.WriteLine($"  {"estimate, not measured",-22} " + string.Join(" ", DeviceModel.Article.Select(d => $"{d.Name + " MB/s",10} {"xsolid",7}")));
        foreach (var p in s.Paths)
            o.WriteLine($"  {p.Name + " estimate",-22} " + string.Join(" ", DeviceModel.Article.Select(d => s.Estimate(p, d) is { } e ? $"{e.Mbps,10:F0} {e.Ratio,7:F2}" : "")));
        o.WriteLine("  build paths: one-time costs, paid when the mods change, not per read:");
        o.WriteLine($"  {"one-time build",-20} {"ms",8} {"min",8} {"max",8} {"MB/s",8} {"speed vs repack",16}");
        foreach (var b in s.Builds)
        {
            var ms = Samples.Of(b.Ms);
            o.WriteLine($"  {b.Name,-20} {ms.Median,8:F1} {ms.Min,8:F1} {ms.Max,8:F1} {s.ArchiveBytes / (ms.Median / 1000) / 1e6,8:F0} {Samples.MedianOf(b.RatioToRepack),15:F1}x"
                + (b.StoredRatio is { } r ? $"  stored {r:P1} of the archive" : ""));
        }
        o.WriteLine($"  lz4 on texture-like data: stored {s.Lz4.Ratio:P1} of the archive, {s.Lz4.ChunksCompressed:P0} of 64 KiB chunks shrank, "
            + $"decode {s.Lz4.DecodeMbps.Median:F0} MB/s (in memory)");
    }

    public void WriteJson(TextWriter o) => JsonOutput.Write(o, ToJson());

    private JsonObject ToJson() => new()
    {
        ["machine"] = new JsonObject
        {
            ["os"] = machine.Os, ["kernel"] = machine.Kernel, ["cpu"] = machine.Cpu, ["cpu_count"] = machine.CpuCount, ["memory_bytes"] = machine.MemoryBytes,
            ["runtime"] = machine.Runtime, ["storage"] = machine.Storage, ["rotational"] = machine.Rotational, ["dir"] = machine.Folder,
        },
        ["options"] = new JsonObject
        {
            ["runs"] = options.Runs, ["cold"] = options.Cold, ["drop_caches"] = options.DropAllCaches, ["random_reads"] = options.RandomReads,
            ["block_size"] = options.BlockSize, ["scale_down"] = options.ScaleDown,
        },
        ["units"] = new JsonObject { ["mbps"] = "10^6 bytes per second", ["texture_data"] = TextureData, ["device_estimate"] = $"{EstimateNote}; {EstimateLimit}" },
        ["scenarios"] = JsonOutput.Array(scenarios, s => new JsonObject
        {
            ["name"] = s.Scenario.Name,
            ["cold"] = s.Cold,
            ["summary"] = s.Scenario.Summary,
            ["archive_bytes"] = s.ArchiveBytes,
            ["entries"] = s.Scenario.EntryCount,
            ["injected"] = s.Scenario.InjectedCount,
            ["source_files"] = s.SourceFiles,
            ["seconds"] = s.Seconds,
            ["paths"] = JsonOutput.Array(s.Paths, p => PathJson(s, p)),
            ["builds"] = JsonOutput.Array(s.Builds, b => new JsonObject
            {
                ["path"] = b.Name,
                ["what"] = b.Means,
                ["ms"] = Samples.Of(b.Ms).ToJson(),
                ["mbps"] = Samples.Of(b.Ms.Select(ms => s.ArchiveBytes / (ms / 1000) / 1e6).ToList()).ToJson(),
                ["runs_ms"] = JsonOutput.Numbers(b.Ms),
                ["speed_vs_repack"] = Samples.MedianOf(b.RatioToRepack),
                ["stored_ratio"] = b.StoredRatio,
            }),
            ["lz4"] = new JsonObject { ["data"] = TextureData, ["ratio"] = s.Lz4.Ratio, ["chunks_compressed"] = s.Lz4.ChunksCompressed, ["decode_mbps"] = s.Lz4.DecodeMbps.ToJson() },
        }),
        ["verdict"] = new BenchVerdict(options, scenarios).ToJson(),
    };

    private static JsonObject PathJson(ScenarioResult s, PathMeasurements p) => new()
    {
        ["path"] = p.Name,
        ["mbps"] = Samples.Of(p.WholeMbps).ToJson(),
        ["ratio_to_solid"] = Samples.MedianOf(p.WholeRatioToSolid),
        ["opens"] = p.Opens,
        ["reads"] = p.WholeTrace?.Reads,
        ["runs_mbps"] = JsonOutput.Numbers(p.WholeMbps),
        ["runs_ratio_to_solid"] = JsonOutput.Numbers(p.WholeRatioToSolid),
        ["bytes_read"] = p.WholeTrace?.Bytes,
        ["pieces"] = p.WholeTrace?.Pieces,
        ["read_syscalls"] = p.WholeIo?.Syscalls,
        ["read_syscall_bytes"] = p.WholeIo?.Bytes,
        ["open_ms"] = Samples.Of(p.OpenMs).ToJson(),
        ["peak_rss_delta_bytes"] = p.PeakRssDelta,
        ["compression_ratio"] = p.Path.CompressionRatio,
        ["random_4k"] = new JsonObject
        {
            ["mbps"] = Samples.Of(p.RandomMbps).ToJson(),
            ["ratio_to_solid"] = Samples.MedianOf(p.RandomRatioToSolid),
            ["runs_mbps"] = JsonOutput.Numbers(p.RandomMbps),
            ["runs_ratio_to_solid"] = JsonOutput.Numbers(p.RandomRatioToSolid),
            ["reads"] = p.RandomTrace?.Reads,
            ["bytes_read"] = p.RandomTrace?.Bytes,
        },
        ["random_entries"] = new JsonObject
        {
            ["what"] = "up to 400 whole entries in random order, each in pieces of 64 KiB-1 MiB (a game's loader)",
            ["mbps"] = Samples.Of(p.EntriesMbps).ToJson(),
            ["ratio_to_solid"] = Samples.MedianOf(p.EntriesRatioToSolid),
            ["runs_mbps"] = JsonOutput.Numbers(p.EntriesMbps),
            ["runs_ratio_to_solid"] = JsonOutput.Numbers(p.EntriesRatioToSolid),
        },
        ["device_estimate"] = new JsonObject(DeviceModel.Article.Select(d => KeyValuePair.Create(d.Name, s.Estimate(p, d) is { } e
            ? (JsonNode?)new JsonObject { ["mbps"] = e.Mbps, ["ratio_to_solid"] = e.Ratio } : null))),
    };
}
