namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// <c>bench --plot FILE.svg</c>: every read path's speed relative to solid as bars, for people who would rather look
/// than read. Two panels, whole-archive read and 4 KiB random reads; in each, one group of bars per scenario, one bar
/// per path (the median of the per-run ratios) with a whisker over the runs' min–max, and a dashed line at 1.0× (solid).
/// Drawing only: made from the results, it measures nothing.
/// </summary>
/// <remarks>
/// The size in px follows from S scenarios and P paths alone:
/// width = max(640, 56 + S × (P × 20 + (P − 1) × 4) + (S + 1) × 40 + 176) — the axis, the groups of 20 px bars 4 px apart
/// with 40 px between groups, the legend; height = max(84 + 2 × 300 + 16 + 8, 84 + 24 + (P + 3) × 18 + 8) — the title,
/// two panels 16 px apart (each a 24 px heading, a 240 px plot, 36 px of scenario labels), unless the legend is taller.
/// A bar is ratio ÷ axis top × 240 px high from the panel's baseline; the panel's <c>g</c> carries both
/// (<c>data-axis-max</c>, <c>data-baseline</c>), each bar and whisker its <c>data-scenario</c> and <c>data-path</c>. The axis
/// holds every bar and 1.0×, and whiskers up to 1.5 × the tallest bar: one reaching higher stops at the top with an arrowhead
/// and its highest run's value.
/// </remarks>
internal sealed class BenchPlot(MachineInfo machine, BenchOptions options, IReadOnlyList<ScenarioResult> scenarios)
{
    private const int AxisWidth = 56, BarWidth = 20, BarGap = 4, GroupGap = 40, LegendWidth = 176, MinWidth = 640;
    private const int TitleHeight = 84, HeadingHeight = 24, PlotHeight = 240, LabelHeight = 36, PanelGap = 16, Bottom = 8;
    private const int PanelHeight = HeadingHeight + PlotHeight + LabelHeight, LegendRow = 18;
    private const double WhiskerRoom = 1.5;

    // Okabe–Ito's colours, told apart with colour-blindness too; solid (first) in grey.
    private static readonly string[] Palette = ["#8c8c8c", "#d55e00", "#e69f00", "#cc79a7", "#0072b2", "#56b4e9", "#009e73", "#f0e442", "#000000"];

    private readonly List<string> _paths = scenarios.SelectMany(s => s.Paths.Select(p => p.Name)).Distinct().ToList();

    public int Width => Math.Max(MinWidth, AxisWidth + scenarios.Count * GroupWidth + (scenarios.Count + 1) * GroupGap + LegendWidth);

    public int Height => Math.Max(TitleHeight + 2 * PanelHeight + PanelGap + Bottom, TitleHeight + HeadingHeight + (_paths.Count + 3) * LegendRow + Bottom);

    private int GroupWidth => _paths.Count * BarWidth + (_paths.Count - 1) * BarGap;
    private int PlotRight => Width - LegendWidth;

    /// <summary>One bar: a path's ratios to solid in one scenario, over the runs.</summary>
    private sealed record Bar(int Group, string Scenario, string Path, Samples Ratio, int Runs);

    private sealed record Panel(string Name, string Heading, IReadOnlyList<Bar> Bars);

    public void Write(Stream stream)
    {
        using var svg = new SvgCanvas(stream, Width, Height, $"archiveemu bench: {Title} — {machine.Describe()}",
            $"Bars: the median over {options.Runs} runs of each path's MB/s divided by solid's in the same run; whiskers: the lowest and highest run.");
        svg.Text(16, 26, 16, SvgCanvas.Fit(Title, Width - 32, 16), ("font-weight", "bold"));
        svg.Text(16, 46, 11, SvgCanvas.Fit(machine.Computer, Width - 32, 11), ("fill", "#444444"));
        svg.Text(16, 62, 11, SvgCanvas.Fit($"{machine.DirStorage}; {options.Runs} runs per path, interleaved{Scaled}", Width - 32, 11), ("fill", "#444444"));
        DrawPanel(svg, new Panel("whole-archive", "Whole-archive read (MB/s ÷ solid's in the same run)", BarsOf(p => p.WholeRatioToSolid)),
            TitleHeight);
        var random = BarsOf(p => p.RandomRatioToSolid);
        DrawPanel(svg, new Panel("random-4k", $"4 KiB random reads, {options.RandomReads} per run (÷ solid's){NoneBy(random)}", random),
            TitleHeight + PanelHeight + PanelGap);
        DrawLegend(svg, TitleHeight + HeadingHeight);
    }

    private string Title => "Read speed ÷ solid's, " + (!options.Cold ? "warm (files in the page cache)"
        : options.DropAllCaches ? "cold (all caches dropped before every run)" : "cold (pages dropped before every run)");

    private string Scaled => options.ScaleDown > 1 ? $"; textures {options.ScaleDown}× smaller" : "";

    // Says which paths have no bar (their place stays empty), so a reader does not look for a lost one.
    private string NoneBy(IReadOnlyList<Bar> bars) =>
        _paths.Where(path => bars.All(b => b.Path != path)).ToList() is { Count: > 0 } none
            ? $"; {string.Join(", ", none)} {(none.Count == 1 ? "makes" : "make")} none" : "";

    // A path without finite runs gets no bar: a zero would read as "infinitely slow".
    private List<Bar> BarsOf(Func<PathMeasurements, IReadOnlyCollection<double>> runs) =>
    [
        .. scenarios.SelectMany((s, group) => s.Paths
            .Where(p => runs(p).Count > 0 && runs(p).All(double.IsFinite))
            .Select(p => new Bar(group, s.Scenario.Name, p.Name, Samples.Of(runs(p)), runs(p).Count))),
    ];

    private void DrawPanel(SvgCanvas svg, Panel panel, int top)
    {
        double baseline = top + HeadingHeight + PlotHeight;
        var (axisTop, step) = Axis(AxisCovers(panel.Bars));
        double scale = PlotHeight / axisTop;
        svg.Open("g", ("class", "panel"), ("data-panel", panel.Name), ("data-axis-max", SvgCanvas.Exact(axisTop)), ("data-baseline", baseline));
        svg.Text(AxisWidth, top + 16, 12, SvgCanvas.Fit(panel.Heading, Width - AxisWidth - 16, 12), ("font-weight", "bold"));
        for (int i = 0; i * step <= axisTop * (1 + 1e-9); i++)
        {
            double y = baseline - i * step * scale;
            svg.Empty("line", ("x1", AxisWidth), ("y1", y), ("x2", PlotRight), ("y2", y), ("stroke", i == 0 ? "#888888" : "#e4e4e4"));
            svg.Text(AxisWidth - 6, y + 4, 11, $"{Math.Round(i * step, 6):0.##}×", ("text-anchor", "end"), ("fill", "#444444"));
        }
        for (int group = 0; group < scenarios.Count; group++)
            DrawGroupLabel(svg, scenarios[group], GroupLeft(group) + GroupWidth / 2.0, baseline);
        foreach (var bar in panel.Bars)
            DrawBar(svg, bar, baseline, scale);
        double one = baseline - scale; // drawn over the bars: above or below the line is what a reader looks for
        svg.Empty("line", ("class", "reference"), ("data-ratio", "1"), ("x1", AxisWidth), ("y1", one), ("x2", PlotRight), ("y2", one),
            ("stroke", "#000000"), ("stroke-width", 1.5), ("stroke-dasharray", "6 4"));
        foreach (var bar in panel.Bars)
            DrawWhisker(svg, bar, baseline, scale, axisTop);
        if (panel.Bars.Count == 0)
            svg.Text((AxisWidth + PlotRight) / 2.0, baseline - PlotHeight / 2.0, 12, "not measured", ("text-anchor", "middle"), ("fill", "#444444"));
        svg.Close();
    }

    private void DrawGroupLabel(SvgCanvas svg, ScenarioResult scenario, double middle, double baseline)
    {
        string name = scenario.Scenario.Name;
        bool cut = !SvgCanvas.Fits(name, GroupWidth + GroupGap - 8, 12);
        if (cut) // the whole name stays in a tooltip
        {
            svg.Open("g");
            svg.Element("title", name);
        }
        svg.Text(middle, baseline + 16, 12, SvgCanvas.Fit(name, GroupWidth + GroupGap - 8, 12), ("class", "scenario"), ("text-anchor", "middle"));
        if (cut)
            svg.Close();
        svg.Text(middle, baseline + 30, 10, SvgCanvas.Fit($"{Units.Bytes(scenario.ArchiveBytes)}, {scenario.Scenario.EntryCount} entries", GroupWidth + GroupGap - 8, 10),
            ("text-anchor", "middle"), ("fill", "#555555"));
    }

    private void DrawBar(SvgCanvas svg, Bar bar, double baseline, double scale)
    {
        double height = bar.Ratio.Median * scale;
        svg.Open("rect", ("class", "bar"), ("data-scenario", bar.Scenario), ("data-path", bar.Path), ("data-ratio", SvgCanvas.Exact(bar.Ratio.Median)),
            ("x", BarLeft(bar)), ("y", baseline - height), ("width", BarWidth), ("height", height), ("fill", Colour(bar.Path)));
        svg.Element("title", $"{bar.Scenario}, {bar.Path}: {bar.Ratio.Median:0.00}× solid (median of {bar.Runs} runs; lowest {bar.Ratio.Min:0.00}×, highest {bar.Ratio.Max:0.00}×)");
        svg.Close();
    }

    // A vertical line from the lowest run to the highest, capped at both ends; one above the axis stops at its top with
    // an arrowhead and the highest run's value.
    private void DrawWhisker(SvgCanvas svg, Bar bar, double baseline, double scale, double axisTop)
    {
        bool clipped = bar.Ratio.Max > axisTop;
        double x = BarLeft(bar) + BarWidth / 2.0, low = baseline - bar.Ratio.Min * scale, high = baseline - Math.Min(bar.Ratio.Max, axisTop) * scale;
        svg.Empty("line", ("class", "whisker"), ("data-scenario", bar.Scenario), ("data-path", bar.Path),
            ("data-min", SvgCanvas.Exact(bar.Ratio.Min)), ("data-max", SvgCanvas.Exact(bar.Ratio.Max)),
            ("x1", x), ("y1", low), ("x2", x), ("y2", high), ("stroke", "#222222"), ("stroke-width", 1.5));
        svg.Empty("line", ("x1", x - 4), ("y1", low), ("x2", x + 4), ("y2", low), ("stroke", "#222222"), ("stroke-width", 1.5));
        if (!clipped)
        {
            svg.Empty("line", ("x1", x - 4), ("y1", high), ("x2", x + 4), ("y2", high), ("stroke", "#222222"), ("stroke-width", 1.5));
            return;
        }
        svg.Empty("polyline", ("points", FormattableString.Invariant($"{x - 4:0.###},{high + 6:0.###} {x:0.###},{high:0.###} {x + 4:0.###},{high + 6:0.###}")),
            ("fill", "none"), ("stroke", "#222222"), ("stroke-width", 1.5));
        // at most 4 characters, so the label stays clear of the next bar's whisker (24 px on)
        svg.Text(x + 3, high + 9, 9, bar.Ratio.Max >= 10 ? $"{bar.Ratio.Max:0}×" : $"{bar.Ratio.Max:0.#}×", ("class", "clipped"), ("fill", "#222222"));
    }

    private void DrawLegend(SvgCanvas svg, int top)
    {
        double x = PlotRight + 16;
        svg.Open("g", ("class", "legend"));
        for (int i = 0; i < _paths.Count; i++)
        {
            double y = top + i * LegendRow;
            svg.Empty("rect", ("x", x), ("y", y), ("width", 12), ("height", 12), ("fill", Colour(_paths[i])));
            svg.Text(x + 18, y + 10, 11, SvgCanvas.Fit(_paths[i], LegendWidth - 40, 11));
        }
        double row = top + _paths.Count * LegendRow + 6;
        svg.Empty("line", ("x1", x), ("y1", row), ("x2", x + 12), ("y2", row), ("stroke", "#000000"), ("stroke-width", 1.5), ("stroke-dasharray", "4 2"));
        svg.Text(x + 18, row + 4, 11, "solid = 1.0×");
        svg.Text(x, row + LegendRow + 4, 11, SvgCanvas.Fit($"bar: median of {options.Runs} runs", LegendWidth - 24, 11));
        svg.Text(x, row + 2 * LegendRow + 4, 11, "whisker: min–max");
        svg.Close();
    }

    private double GroupLeft(int group)
    {
        double spare = PlotRight - AxisWidth - scenarios.Count * GroupWidth - (scenarios.Count + 1) * GroupGap; // above 0 only at the minimum width
        return AxisWidth + spare / 2 + GroupGap + group * (GroupWidth + GroupGap);
    }

    // Each path keeps its place in every group, so a path sits at the same x in both panels.
    private double BarLeft(Bar bar) => GroupLeft(bar.Group) + _paths.IndexOf(bar.Path) * (BarWidth + BarGap);

    private string Colour(string path) => Palette[_paths.IndexOf(path) % Palette.Length];

    // Every bar and 1.0×, and the whiskers up to half as high again: one noisy run (a shared machine's) would otherwise
    // squeeze every bar into the bottom of the plot.
    private static double AxisCovers(IReadOnlyList<Bar> bars)
    {
        double bar = bars.Select(b => b.Ratio.Median).DefaultIfEmpty(1).Max();
        return Math.Min(bars.Select(b => b.Ratio.Max).DefaultIfEmpty(1).Max(), WhiskerRoom * Math.Max(1, bar));
    }

    /// <summary>The axis top and tick step: a step of 1, 2, 2.5 or 5 × 10^k, at most 6 ticks, room above the highest whisker and 1.0×.</summary>
    internal static (double Top, double Step) Axis(double highest)
    {
        double target = Math.Max(1, highest) * 1.05;
        double magnitude = Math.Pow(10, Math.Floor(Math.Log10(target / 6)));
        double step = new[] { 1, 2, 2.5, 5, 10 }.Select(m => Math.Round(m * magnitude, 9)).First(s => s * 6 >= target);
        return (Math.Round(Math.Ceiling(target / step - 1e-9) * step, 9), step);
    }
}
