using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 31, "Merged tables", bound as Persona Essentials binds them: UNIT.TBL held by CPK/BASE.CPK and CPK/EN.CPK is merged
/// once, against EN.CPK's copy (the game's language), and build and ls report that one merge once, naming EN.CPK as its
/// original and BASE.CPK as also serving it; ls through either CPK's path lists it.
/// </summary>
public sealed class TableOriginalReportTests
{
    private const string Table = "CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("table-original-report");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[][] UnitSegments(int seed) =>
        [TestData.Random(seed, 68 * 8), new byte[2 * 40], new byte[2 * 40], TestData.Random(seed + 1, 17), new byte[2 * 20], TestData.Random(seed + 2, 50)];

    private string[] WriteGame()
    {
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/BASE.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(UnitSegments(10)))]));
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(UnitSegments(20)))]));
        var a = UnitSegments(20);
        a[0][68 + 22] ^= 0x10;
        var b = UnitSegments(20);
        b[0][68 + 23] ^= 0x20; // the same u16 as a's: one conflict
        _dir.Write("a/CRIFsV2Hook/CPK/BASE.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(b));
        return ["--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache"];
    }

    [Test]
    public void BuildJson_ATableTwoCpksHold_IsOneTableNamingItsOriginalAndEveryCpkServingIt()
    {
        var args = WriteGame();

        var result = CliRun.Run(["build", .. args, "--json"]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var table = doc.RootElement.GetProperty("tables").EnumerateArray().Single();
        Assert.That(table.GetProperty("path").GetString(), Is.EqualTo(Table));
        Assert.That(table.GetProperty("original").GetString(), Is.EqualTo("CPK/EN.CPK"));
        Assert.That(table.GetProperty("bound_in").EnumerateArray().Select(c => c.GetString()), Is.EqualTo(new[] { "CPK/EN.CPK", "CPK/BASE.CPK" }));
        Assert.That(table.GetProperty("conflicts").GetArrayLength(), Is.EqualTo(1));
    }

    [Test]
    public void BuildText_SaysWhichOtherCpkServesTheMerge()
    {
        var args = WriteGame();

        var result = CliRun.Run(["build", .. args]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out.Split('\n').Where(l => l.Contains("(merged table")), Is.EqualTo(new[] { $"{Table}  (merged table, also served in CPK/BASE.CPK)" }));
    }

    [Test]
    public void Ls_ThroughTheOtherCpksPath_ListsTheOneMerge()
    {
        var args = WriteGame();

        var result = CliRun.Run(["ls", .. args, "cpk/base.cpk/battle/table/unit.tbl"]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out.Split('\n')[0], Is.EqualTo($"{Table}  merged table, also served in CPK/BASE.CPK  6 segments  1 conflict"));
    }
}
