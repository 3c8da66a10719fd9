using System.Text;
using System.Xml.Linq;
using ArchiveEmu.Cli.Bench;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary><see cref="BenchPlot"/> on hand-made results, no bench run: escaping, bars left out, whiskers, size and axis.</summary>
public sealed class BenchPlotDrawingTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";
    private static readonly BenchOptions Options = new(Runs: 3, Cold: false, DropAllCaches: false, RandomReads: 20, BlockSize: 1 << 20, ScaleDown: 1);
    private static readonly MachineInfo Machine = new("Linux", "6.1", "CPU <&> \"fast\"\u0001", 2, 8L << 30, ".NET 10", "/dev/vda", false, "/tmp");

    [Test]
    public void Draw_ScenarioNameWithMarkup_IsEscaped_AndReadsBackAsWritten()
    {
        const string name = "a<&>\"b";
        var (svg, text) = Draw(Scenario(name, Path("solid", [1, 1], [1, 1]), Path("emulated", [0.5, 0.6], [0.2, 0.3])));

        Assert.That(text, Does.Contain("a&lt;&amp;&gt;\"b").And.Contain("a&lt;&amp;&gt;&quot;b"), "escaped in text and in attributes");
        Assert.That(svg.Descendants(Svg + "text").Where(t => (string?)t.Attribute("class") == "scenario").Select(t => t.Value),
            Is.EqualTo(new[] { name, name }));
        Assert.That(svg.Descendants(Svg + "rect").Where(r => (string?)r.Attribute("class") == "bar").Select(r => (string?)r.Attribute("data-scenario")),
            Is.All.EqualTo(name));
        Assert.That(svg.Root!.Element(Svg + "title")!.Value, Does.Contain("CPU <&> \"fast\"\uFFFD"), "a control character XML cannot hold is replaced");
    }

    [Test]
    public void Draw_PathsWithoutRandomRuns_HaveNoRandomBar_ButTheirWholeArchiveBar()
    {
        var (svg, _) = Draw(Scenario("s",
            Path("solid", [1, 1], [1, 1]),
            Path("whole", [0.7, 0.9], []),
            Path("nan", [0.7, 0.9], [double.NaN, 1])));

        Assert.That(BarPaths(svg, "whole-archive"), Is.EqualTo(new[] { "solid", "whole", "nan" }));
        Assert.That(BarPaths(svg, "random-4k"), Is.EqualTo(new[] { "solid" }), "no zero bars");
        var random = Panel(svg, "random-4k");
        Assert.That(random.Descendants(Svg + "line").Count(l => (string?)l.Attribute("class") == "whisker"), Is.EqualTo(1));
        Assert.That(random.Element(Svg + "text")!.Value, Does.EndWith("; whole, nan make none"));
    }

    [Test]
    public void Draw_Whisker_SpansTheLowestToTheHighestRun_OnTheAxisScale()
    {
        var (svg, _) = Draw(Scenario("s", Path("solid", [1, 1, 1], [1, 1, 1]), Path("emulated", [0.5, 1.9, 0.8], [0.2, 0.2, 0.2])));

        // highest 1.9 with 5 % room: ticks of 0.5 up to 2, so 1.0× is 120 px; the first panel's baseline is 84 + 24 + 240
        var panel = Panel(svg, "whole-archive");
        Assert.That((string?)panel.Attribute("data-axis-max"), Is.EqualTo("2"));
        Assert.That((string?)panel.Attribute("data-baseline"), Is.EqualTo("348"));
        var bar = panel.Elements(Svg + "rect").Single(r => (string?)r.Attribute("data-path") == "emulated");
        Assert.That(((string?)bar.Attribute("data-ratio"), (string?)bar.Attribute("y"), (string?)bar.Attribute("height")), Is.EqualTo(("0.8", "252", "96")));
        var whisker = panel.Elements(Svg + "line").Single(l => (string?)l.Attribute("class") == "whisker" && (string?)l.Attribute("data-path") == "emulated");
        Assert.That(((string?)whisker.Attribute("y1"), (string?)whisker.Attribute("y2")), Is.EqualTo(("288", "120")), "from 0.5 to 1.9");
        var reference = panel.Elements(Svg + "line").Single(l => (string?)l.Attribute("class") == "reference");
        Assert.That((string?)reference.Attribute("y1"), Is.EqualTo("228"));
    }

    [Test]
    public void Draw_WhiskerFarAboveTheBars_StopsAtTheAxisTop_WithItsValue()
    {
        var (svg, _) = Draw(Scenario("s", Path("solid", [1, 1, 1], [1, 1, 1]), Path("emulated", [0.5, 9, 0.8], [0.2, 0.2, 0.2])));

        // the axis holds the bars and 1.0× and whiskers up to 1.5× (ticks of 0.5 up to 2), not one noisy run of 9×
        var panel = Panel(svg, "whole-archive");
        Assert.That((string?)panel.Attribute("data-axis-max"), Is.EqualTo("2"));
        var whisker = panel.Elements(Svg + "line").Single(l => (string?)l.Attribute("class") == "whisker" && (string?)l.Attribute("data-path") == "emulated");
        Assert.That(((string?)whisker.Attribute("data-max"), (string?)whisker.Attribute("y1"), (string?)whisker.Attribute("y2")),
            Is.EqualTo(("9", "288", "108")), "from 0.5 to the plot's top");
        Assert.That(panel.Elements(Svg + "text").Where(t => (string?)t.Attribute("class") == "clipped").Select(t => t.Value), Is.EqualTo(new[] { "9×" }));
        Assert.That(panel.Elements(Svg + "polyline").Count(), Is.EqualTo(1), "an arrowhead, no cap");
    }

    [TestCase(1, 3, 640, 708, TestName = "Size_OneScenario_IsTheMinimumWidth")]
    [TestCase(5, 7, 56 + 5 * 164 + 6 * 40 + 176, 708, TestName = "Size_FiveScenarios_GrowsWithTheGroups")]
    [TestCase(1, 30, 56 + 30 * 20 + 29 * 4 + 2 * 40 + 176, 84 + 24 + 33 * 18 + 8, TestName = "Size_ThirtyPaths_GrowsWithTheLegend")]
    public void Size_FollowsTheDocumentedFormula(int scenarios, int paths, int width, int height)
    {
        var results = Enumerable.Range(0, scenarios)
            .Select(s => Scenario($"s{s}", [.. Enumerable.Range(0, paths).Select(p => Path(p == 0 ? "solid" : $"path-{p}", [1], [1]))]))
            .ToArray();
        var root = Draw(results).Svg.Root!;

        Assert.That(((string?)root.Attribute("width"), (string?)root.Attribute("height"), (string?)root.Attribute("viewBox")),
            Is.EqualTo(($"{width}", $"{height}", $"0 0 {width} {height}")));
        var plot = new BenchPlot(Machine, Options, results);
        Assert.That((plot.Width, plot.Height), Is.EqualTo((width, height)));
    }

    [TestCase(1.0, 1.2, 0.2)]
    [TestCase(0.3, 1.2, 0.2)]
    [TestCase(1.9, 2.0, 0.5)]
    [TestCase(5.65, 6.0, 1.0)]
    [TestCase(42, 50, 10)]
    public void Axis_HasRoomAboveTheHighestRunAndOne_InRoundSteps(double highest, double top, double step) =>
        Assert.That(BenchPlot.Axis(highest), Is.EqualTo((top, step)));

    private static (XDocument Svg, string Text) Draw(params ScenarioResult[] scenarios)
    {
        using var stream = new MemoryStream();
        new BenchPlot(Machine, Options, scenarios).Write(stream);
        var text = Encoding.UTF8.GetString(stream.ToArray());
        return (XDocument.Parse(text), text);
    }

    private static ScenarioResult Scenario(string name, params PathMeasurements[] paths) =>
        new(new BenchScenario(name, 4, 4096, 1, "hand-made"), 4 * (4096 + 128), 4, Cold: false, paths, [], new Lz4Figures(0.8, 1, new Samples(1, 1, 1)), 0.1);

    private static PathMeasurements Path(string name, double[] whole, double[] random)
    {
        var path = new PathMeasurements(new ReadPath(name, () => throw new NotSupportedException("drawn, never read")));
        path.WholeRatioToSolid.AddRange(whole);
        path.RandomRatioToSolid.AddRange(random);
        return path;
    }

    private static XElement Panel(XDocument svg, string name) => svg.Descendants(Svg + "g").Single(g => (string?)g.Attribute("data-panel") == name);

    private static IEnumerable<string?> BarPaths(XDocument svg, string panel) =>
        Panel(svg, panel).Elements(Svg + "rect").Where(r => (string?)r.Attribute("class") == "bar").Select(r => (string?)r.Attribute("data-path"));
}
