using System.Buffers.Binary;
using System.Globalization;
using System.Text.Json;
using System.Xml.Linq;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary>
/// Issue 18: <c>bench --plot FILE.svg</c>, checked by opening the picture: an SVG of the documented size whose bars and
/// whiskers are the JSON's ratios, read back with System.Xml, Python's ElementTree and rsvg-convert; and bad input.
/// </summary>
public sealed class BenchPlotTests
{
    private static readonly XNamespace Svg = "http://www.w3.org/2000/svg";
    private static readonly string[] PathNames = ["solid", "emulated", "emulated-kept", "merged", "merged-kept", "merged-lz4"];
    private static readonly string[] ScenarioNames = ["texture-archive", "512x128K"];

    // BenchPlot's documented layout: 20 px bars 4 px apart, scenario groups 40 px apart, a 56 px axis, a 176 px legend,
    // at least 640 px wide; a 84 px title, two panels of 300 px (the plot 240 px high) 16 px apart, 8 px below, unless
    // the legend (P + 3 rows of 18 px under the title and a 24 px heading) is taller.
    private const double PlotHeight = 240;
    private static int DocumentedWidth(int scenarios, int paths) =>
        Math.Max(640, 56 + scenarios * (paths * 20 + (paths - 1) * 4) + (scenarios + 1) * 40 + 176);
    private static int DocumentedHeight(int paths) => Math.Max(84 + 2 * 300 + 16 + 8, 84 + 24 + (paths + 3) * 18 + 8);

    private TempDirectory _dir = null!;
    private BenchRun? _run;

    /// <summary>One bench run with --json and --plot: what the picture is checked against.</summary>
    private sealed record BenchRun(string SvgPath, XDocument Svg, JsonElement Json);

    [OneTimeSetUp]
    public void CreateFolder() => _dir = new TempDirectory("bench-plot");

    [OneTimeTearDown]
    public void DeleteFolder() => _dir.Dispose();

    // The run takes seconds: the tests that read its picture share it.
    private BenchRun Run()
    {
        if (_run is not null)
            return _run;
        var work = Directory.CreateDirectory(_dir["work"]).FullName;
        var (json, svg) = (_dir["b.json"], _dir["b.svg"]);
        var result = CliRun.Run("bench", "--scale-down", "512", "--runs", "2", "--random-reads", "20", "--dir", work, "--json", json, "--plot", svg);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(Directory.EnumerateFileSystemEntries(work), Is.Empty, "the generated data is removed");
        return _run = new BenchRun(svg, XDocument.Load(svg), JsonDocument.Parse(File.ReadAllText(json)).RootElement);
    }

    [Test]
    public void Plot_DefaultScenarios_IsAnSvgOfTheDocumentedSize()
    {
        var root = Run().Svg.Root!;

        Assert.That(root.Name, Is.EqualTo(Svg + "svg"));
        Assert.That((DocumentedWidth(2, 6), DocumentedHeight(6)), Is.EqualTo((640, 708)), "two groups of six bars need 632 px: the minimum width");
        Assert.That((string?)root.Attribute("width"), Is.EqualTo("640"));
        Assert.That((string?)root.Attribute("height"), Is.EqualTo("708"));
        Assert.That((string?)root.Attribute("viewBox"), Is.EqualTo("0 0 640 708"));
        Assert.That((string?)root.Attribute("font-family"), Is.EqualTo("sans-serif"));
        Assert.That(root.Descendants().Where(e => e.Name.LocalName is "script" or "foreignObject" or "image" or "style"), Is.Empty);
        Assert.That(root.DescendantsAndSelf().SelectMany(e => e.Attributes()).Where(a => a.Name.LocalName == "href" || a.Value.Contains("url(")),
            Is.Empty, "no external references");
    }

    [Test]
    public void Plot_Title_NamesWarmAndTheMachine()
    {
        var run = Run();
        var title = run.Svg.Root!.Element(Svg + "title")!.Value;
        Assert.That(title, Does.Contain("warm"));
        Assert.That(title, Does.Contain(run.Json.GetProperty("machine").GetProperty("cpu").GetString()!));
        var labels = run.Svg.Descendants(Svg + "text").Where(t => (string?)t.Attribute("class") == "scenario").Select(t => t.Value);
        Assert.That(labels, Is.EqualTo(ScenarioNames.Concat(ScenarioNames)), "each panel labels its groups");
    }

    [Test]
    public void Plot_WholeArchiveBars_AreTheJsonRatios_WithWhiskersOverTheRuns()
    {
        var run = Run();
        var panel = Panel(run.Svg, "whole-archive");
        foreach (var (scenario, path, json) in JsonPaths(run.Json))
            CheckBar(panel, scenario, path, json.GetProperty("ratio_to_solid").GetDouble(), Values(json.GetProperty("runs_ratio_to_solid")));
        Assert.That(Bars(panel).Count(), Is.EqualTo(2 * 6), "one bar per scenario and path");
    }

    [Test]
    public void Plot_RandomReadBars_AreTheJsonRatios()
    {
        var run = Run();
        var panel = Panel(run.Svg, "random-4k");
        foreach (var (scenario, path, json) in JsonPaths(run.Json))
        {
            var random = json.GetProperty("random_4k");
            CheckBar(panel, scenario, path, random.GetProperty("ratio_to_solid").GetDouble(), Values(random.GetProperty("runs_ratio_to_solid")));
        }
        Assert.That(Bars(panel).Count(), Is.EqualTo(2 * 6), "every path makes random reads");
    }

    [Test]
    public void Plot_SolidBars_AreExactlyOne_AndReachTheReferenceLine()
    {
        foreach (var name in new[] { "whole-archive", "random-4k" })
        {
            var panel = Panel(Run().Svg, name);
            var reference = panel.Descendants(Svg + "line").Single(l => (string?)l.Attribute("class") == "reference");
            double y = Number(reference, "y1");
            Assert.That(Number(reference, "y2"), Is.EqualTo(y), name);
            Assert.That(y, Is.EqualTo(Number(panel, "data-baseline") - PlotHeight / Number(panel, "data-axis-max")).Within(0.01), name);
            foreach (var solid in Bars(panel).Where(b => (string?)b.Attribute("data-path") == "solid"))
            {
                Assert.That((string?)solid.Attribute("data-ratio"), Is.EqualTo("1"), name);
                Assert.That(Number(solid, "y"), Is.EqualTo(y).Within(0.01), $"{name}: the solid bar's top is the 1.0× line");
            }
        }
    }

    [Test]
    public void Plot_ParsesWithPythonsElementTree()
    {
        LinuxOnly.Require("python3 (an XML parser nobody here wrote)");
        var check = ExternalTool.Python("""
import sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + 'svg', root.tag
bars = {g.get('data-panel'): sum(1 for r in g.iter(ns + 'rect') if r.get('class') == 'bar')
        for g in root.iter(ns + 'g') if g.get('data-panel')}
print(root.get('width'), root.get('height'), root.get('viewBox'), bars['whole-archive'], bars['random-4k'])
""", Run().SvgPath);
        Assert.That(check.ExitCode, Is.Zero, check.ToString());
        Assert.That(check.StdOut.Trim(), Is.EqualTo("640 708 0 0 640 708 12 12"));
    }

    [Test]
    public void Plot_RendersWithRsvgConvert_AtItsOwnSize()
    {
        var png = _dir["b.png"];

        var render = ExternalTool.Run("rsvg-convert", "--format", "png", "--output", png, Run().SvgPath);

        Assert.That(render.ExitCode, Is.Zero, render.ToString());
        var bytes = File.ReadAllBytes(png);
        Assert.That(bytes.AsSpan(0, 8).ToArray(), Is.EqualTo(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G', 13, 10, 26, 10 }));
        Assert.That(System.Text.Encoding.ASCII.GetString(bytes, 12, 4), Is.EqualTo("IHDR"));
        var size = (BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(16)), BinaryPrimitives.ReadInt32BigEndian(bytes.AsSpan(20)));
        Assert.That(size, Is.EqualTo((640, 708)));
    }

    [Test]
    public void Plot_IntoAMissingFolder_IsOneLineNamingIt_AndExit1_WritingNothing()
    {
        var missing = _dir["missing"];
        var work = Directory.CreateDirectory(_dir["work-missing"]).FullName;

        var result = CliRun.Run("bench", "--dir", work, "--plot", Path.Combine(missing, "b.svg"));

        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error.Trim().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(result.Error, Does.Contain($"folder {missing} does not exist"));
        Assert.That(Directory.Exists(missing), Is.False);
        Assert.That(Directory.EnumerateFileSystemEntries(work), Is.Empty, "nothing generated");
    }

    [TestCase("x.png")]
    [TestCase("plot")]
    [TestCase("b.svg.tmp")]
    [TestCase(".svg")]
    public void Plot_NotEndingInSvg_IsAUsageError(string name)
    {
        var result = CliRun.Run("bench", "--dir", _dir.Path, "--plot", _dir[name]);

        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0],
            Is.EqualTo($"archiveemu bench: --plot takes a file name ending in .svg, not '{_dir[name]}'"));
        Assert.That(File.Exists(_dir[name]), Is.False);
    }

    /// <summary>The bar of one scenario and path: its height the ratio on the panel's axis, its whisker the runs' min–max.</summary>
    private static void CheckBar(XElement panel, string scenario, string path, double ratio, double[] runs)
    {
        string what = $"{panel.Attribute("data-panel")!.Value} {scenario} {path}";
        double scale = PlotHeight / Number(panel, "data-axis-max");
        double baseline = Number(panel, "data-baseline");
        var bar = Bars(panel).Single(b => Names(b, scenario, path));
        Assert.That(Number(bar, "data-ratio"), Is.EqualTo(ratio).Within(1e-12), what);
        Assert.That(Number(bar, "height"), Is.EqualTo(ratio * scale).Within(0.01), what);
        Assert.That(Number(bar, "y") + Number(bar, "height"), Is.EqualTo(baseline).Within(0.01), what);
        Assert.That(Number(bar, "width"), Is.GreaterThanOrEqualTo(8), what);

        Assert.That(ratio, Is.LessThanOrEqualTo(Number(panel, "data-axis-max")), what + ": every bar inside the axis");

        // A whisker above the axis (a noisy run) stops at its top, the highest run's value written beside it.
        var whisker = panel.Descendants(Svg + "line").Single(l => (string?)l.Attribute("class") == "whisker" && Names(l, scenario, path));
        Assert.That((Number(whisker, "data-min"), Number(whisker, "data-max")), Is.EqualTo((runs.Min(), runs.Max())), what);
        Assert.That(Number(whisker, "y1"), Is.EqualTo(baseline - runs.Min() * scale).Within(0.01), what + ": whisker from the lowest run");
        Assert.That(Number(whisker, "y2"), Is.EqualTo(baseline - Math.Min(runs.Max(), Number(panel, "data-axis-max")) * scale).Within(0.01),
            what + ": to the highest run");
        Assert.That(Number(whisker, "x1"), Is.EqualTo(Number(bar, "x") + Number(bar, "width") / 2).Within(0.01), what + ": across the bar's middle");
    }

    private static IEnumerable<(string Scenario, string Path, JsonElement Json)> JsonPaths(JsonElement json)
    {
        var scenarios = json.GetProperty("scenarios").EnumerateArray().ToList();
        Assert.That(scenarios.Select(s => s.GetProperty("name").GetString()), Is.EqualTo(ScenarioNames));
        foreach (var s in scenarios)
        {
            var paths = s.GetProperty("paths").EnumerateArray().ToList();
            Assert.That(paths.Select(p => p.GetProperty("path").GetString()), Is.EqualTo(PathNames));
            foreach (var p in paths)
                yield return (s.GetProperty("name").GetString()!, p.GetProperty("path").GetString()!, p);
        }
    }

    private static XElement Panel(XDocument svg, string name) =>
        svg.Descendants(Svg + "g").Single(g => (string?)g.Attribute("data-panel") == name);

    private static IEnumerable<XElement> Bars(XElement panel) =>
        panel.Descendants(Svg + "rect").Where(r => (string?)r.Attribute("class") == "bar");

    private static bool Names(XElement e, string scenario, string path) =>
        (string?)e.Attribute("data-scenario") == scenario && (string?)e.Attribute("data-path") == path;

    private static double Number(XElement e, string attribute) =>
        double.Parse(e.Attribute(attribute)?.Value ?? throw new AssertionException($"<{e.Name.LocalName}> has no {attribute}"), CultureInfo.InvariantCulture);

    private static double[] Values(JsonElement array) => array.EnumerateArray().Select(e => e.GetDouble()).ToArray();
}
