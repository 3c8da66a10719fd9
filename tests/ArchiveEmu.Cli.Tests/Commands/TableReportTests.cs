using System.Buffers.Binary;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 31, "Merged tables", the report: three mods edit a P5R UNIT.TBL inside CPK/EN.CPK, some fields by two or three
/// of them. build (text and --json) names the table, each mod's field count and every contested field; ls of the table's
/// path lists its segments in the served file and the conflicts. Expectations come from the independent merger and from
/// reading the served table's bytes here.
/// </summary>
public sealed class TableReportTests
{
    private const string Table = "CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("table-report");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[][] UnitSegments() =>
        [new byte[68 * 8], new byte[2 * 40], new byte[2 * 40], TestData.Random(3, 17), new byte[2 * 20], TestData.Random(4, 50)];

    private static byte[][] Copy(byte[][] segments) => segments.Select(s => s.ToArray()).ToArray();

    // Segment 0 records are 68 bytes; byte 22 of a record starts a u16, byte 8 is a 1-byte field (docs/TABLES.md, P5R UNIT).
    private (byte[] Game, (string, byte[])[] Mods) WriteGame(bool withExe)
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[0][68 + 22] = 0x10; // enemy 1's u16 at 22: a, b and c
        a[1][6] = 0x01;
        var b = Copy(game);
        b[0][68 + 23] = 0x20;
        b[0][68 * 3 + 8] = 0x05; // enemy 3's byte at 8: b and c
        var c = Copy(game);
        c[0][68 + 22] = 0x30;
        c[0][68 * 3 + 8] = 0x06;
        c[4][0] = 0x09;
        if (withExe)
            _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        var original = PersonaTableWriter.Tbl(game);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed(
            [new("BATTLE/TABLE", "UNIT.TBL", original), new("FONT", "FONT0.FNT", TestData.Random(5, 300))]));
        var mods = new[] { ("a", a), ("b", b), ("c", c) }
            .Select(m => (m.Item1, File.ReadAllBytes(_dir.Write($"{m.Item1}/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(m.Item2)))))
            .ToArray();
        return (original, mods);
    }

    private string[] GameAndMods(params string[] more) =>
        ["--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--mod", _dir["c"], "--no-cache", .. more];

    private static (int Segment, long Offset, int Width, string[] Mods, string Winner)[] Conflicts(JsonElement e) =>
        e.GetProperty("conflicts").EnumerateArray().Select(c => (c.GetProperty("segment").GetInt32(), c.GetProperty("offset").GetInt64(),
            c.GetProperty("width").GetInt32(), c.GetProperty("mods").EnumerateArray().Select(m => m.GetString()!).ToArray(),
            c.GetProperty("winner").GetString()!)).ToArray();

    private static readonly (int, long, int, string[], string)[] Planted =
        [(0, 68 + 22, 2, ["a", "b", "c"], "c"), (0, 68 * 3 + 8, 1, ["b", "c"], "c")];

    [Test]
    public void BuildJson_ThreeModsEditingUnitTbl_ListsTheTableItsModsAndThePlantedConflicts()
    {
        var (original, mods) = WriteGame(withExe: true);

        var result = CliRun.Run(["build", .. GameAndMods("--json")]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var table = doc.RootElement.GetProperty("tables").EnumerateArray().Single();
        Assert.That(table.GetProperty("path").GetString(), Is.EqualTo(Table));
        Assert.That(table.GetProperty("mods").EnumerateArray().Select(m => (m.GetProperty("mod").GetString(), m.GetProperty("fields").GetInt32())),
            Is.EqualTo(new[] { ("a", 2), ("b", 2), ("c", 3) }));
        var expected = new List<ReferenceTableMerger.Conflict>();
        ReferenceTableMerger.MergeTbl(original, mods, PersonaTableWriter.P5RLayouts.Unit, expected);
        Assert.That(expected.Select(c => (c.Segment, c.Offset, c.Width, c.Mods, c.Mods[^1])), Is.EqualTo(Planted), "the independent merger agrees with what was planted");
        Assert.That(Conflicts(table), Is.EqualTo(Planted));
        Assert.That(table.GetProperty("not_applied").GetArrayLength(), Is.Zero);
        Assert.That(table.EnumerateObject().Select(p => p.Name), Is.EqualTo(new[] { "path", "original", "bound_in", "mods", "conflicts", "not_applied" }));
    }

    [Test]
    public void BuildText_NamesTheTable_TheModsFieldCounts_AndEachConflict()
    {
        WriteGame(withExe: true);

        var result = CliRun.Run(["build", .. GameAndMods()]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.Split('\n');
        int at = Array.IndexOf(lines, $"{Table}  (merged table)");
        Assert.That(at, Is.Not.Negative, result.Out);
        Assert.That(lines[(at + 1)..(at + 4)], Is.EqualTo(new[]
        {
            "  mods       a 2 fields, b 2 fields, c 3 fields",
            "  conflict   segment 0 offset 90 width 2: a, b, c -> c wins",
            "  conflict   segment 0 offset 212 width 1: b, c -> c wins",
        }));
    }

    [Test]
    public void BuildText_ManyConflicts_ShowsTenAndCountsTheRest()
    {
        var game = UnitSegments();
        var a = Copy(game);
        var b = Copy(game);
        for (int enemy = 0; enemy < 8; enemy++) // two 1-byte fields per enemy: 16 contested fields
        {
            a[0][68 * enemy + 2] = a[0][68 * enemy + 3] = 1;
            b[0][68 * enemy + 2] = b[0][68 * enemy + 3] = 2;
        }
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(game))]));
        _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(b));

        var result = CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache");

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var conflicts = result.Out.Split('\n').Where(l => l.StartsWith("  conflict   ", StringComparison.Ordinal)).ToArray();
        Assert.That(conflicts, Has.Length.EqualTo(11));
        Assert.That(conflicts[^1], Is.EqualTo($"  conflict   and 6 more (build --json or ls {Table} lists them all)"));
        using var doc = JsonDocument.Parse(CliRun.Run("build", "--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache", "--json").Out);
        Assert.That(doc.RootElement.GetProperty("tables")[0].GetProperty("conflicts").GetArrayLength(), Is.EqualTo(16));
    }

    [Test]
    public void LsJson_OfTheTablesPath_ListsEachSegmentWhereTheServedFileHoldsIt_AndTheConflicts()
    {
        var (original, mods) = WriteGame(withExe: true);
        var cpk = _dir["served.cpk"];
        var cat = CliRun.Run(["cat", .. GameAndMods("-o", cpk), "CPK/EN.CPK"]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        var entry = CpkIndependentReader.Read(cpk).Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL");
        var served = File.ReadAllBytes(cpk).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();
        Assert.That(served, Is.EqualTo(ReferenceTableMerger.MergeTbl(original, mods, PersonaTableWriter.P5RLayouts.Unit)));

        var result = CliRun.Run(["ls", .. GameAndMods("--json"), Table]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        Assert.That(doc.RootElement.GetProperty("table").GetString(), Is.EqualTo(Table));
        var segments = doc.RootElement.GetProperty("segments").EnumerateArray()
            .Select(s => (s.GetProperty("index").GetInt32(), s.GetProperty("offset").GetInt64(), s.GetProperty("length").GetInt32(),
                string.Join(",", s.GetProperty("mods").EnumerateArray().Select(m => m.GetString())))).ToArray();
        string[] changedBy = ["a,b,c", "a", "", "", "c", ""];
        Assert.That(segments, Is.EqualTo(Spans(served, 6).Select((s, i) => (i, s.Offset, s.Length, changedBy[i]))));
        Assert.That(Conflicts(doc.RootElement), Is.EqualTo(Planted));
    }

    [Test]
    public void Ls_OfTheTablesPath_PrintsSegmentsAndConflicts()
    {
        WriteGame(withExe: true);

        var result = CliRun.Run(["ls", .. GameAndMods(), Table.ToLowerInvariant()]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.Split('\n');
        Assert.That(lines[0], Is.EqualTo($"{Table}  merged table  6 segments  2 conflicts"));
        Assert.That(lines, Does.Contain($"{0,7}  {4,10}  {68 * 8,10}  a, b, c"));
        // segment 0 at 4 (544 bytes, next at 560), segment 1 at 564 (80, next at 656): segment 2 at 660
        Assert.That(lines, Does.Contain($"{2,7}  {660,10}  {80,10}  -"));
        Assert.That(lines, Does.Contain("conflict segment 0 offset 212 width 1: b, c -> c wins"));
    }

    [Test]
    public void Build_ModTableWithBytesAfterItsLastSegment_ReportsThemNotAppliedUnderTheTable()
    {
        WriteGame(withExe: true);
        var c = _dir["c/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL"];
        File.WriteAllBytes(c, [.. File.ReadAllBytes(c), 7, 7, 7]);

        var json = CliRun.Run(["build", .. GameAndMods("--json")]);
        var text = CliRun.Run(["build", .. GameAndMods()]);

        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        var notApplied = doc.RootElement.GetProperty("tables")[0].GetProperty("not_applied").EnumerateArray().Select(n => n.GetString()).Single();
        Assert.That(notApplied, Does.StartWith("c: ").And.Contain("the 3 bytes after segment 5 are not applied"));
        Assert.That(text.Out.Split('\n'), Does.Contain($"  not applied  {notApplied}"));
    }

    [Test]
    public void Build_GameWithoutAPersonaExecutable_ReportsNoTables()
    {
        WriteGame(withExe: false);

        var result = CliRun.Run(["build", .. GameAndMods("--json")]);

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        Assert.That(doc.RootElement.GetProperty("tables").GetArrayLength(), Is.Zero);
        Assert.That(CliRun.Run(["build", .. GameAndMods()]).Out, Does.Not.Contain("merged table"));
    }

    [Test]
    public void BuildAndLs_P4GTableInsideThePakInTheCpk_IsNamedThroughBothArchives()
    {
        const string nested = "data.cpk/init_free.bin/battle/UNIT.TBL";
        var layout = PakTestLayout.All.First(l => l.Variant == "V1" && !l.Terminator);
        byte[][] game = [TestData.Random(20, 60 * 3), TestData.Random(21, 2 * 10), TestData.Random(22, 2 * 10)];
        var a = Copy(game);
        a[0][60 + 20] ^= 0xFF; // enemy 1's u16 at 20 (P4G UNIT): a and b
        var b = Copy(game);
        b[0][60 + 21] ^= 0x0F;
        b[2][3] ^= 0x0F;
        _dir.Write("game/P4G.exe", [0x4D, 0x5A]);
        _dir.Write("game/data.cpk", CpkTestWriter.WriteNamed(
            [new("", "init_free.bin", PakTestWriter.Write(layout, [("battle/UNIT.TBL", PersonaTableWriter.Tbl(true, game))]))]));
        var mods = new[] { ("a", a), ("b", b) }
            .Select(m => (m.Item1, File.ReadAllBytes(_dir.Write($"{m.Item1}/CRIFsV2Hook/CPK/data/init_free.bin/battle/UNIT.TBL", PersonaTableWriter.Tbl(true, m.Item2)))))
            .ToArray();
        string[] args = ["--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache", "--json"];

        var build = CliRun.Run(["build", .. args]);
        var ls = CliRun.Run(["ls", .. args, nested]);

        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        using var doc = JsonDocument.Parse(build.Out);
        var table = doc.RootElement.GetProperty("tables").EnumerateArray().Single();
        Assert.That(table.GetProperty("path").GetString(), Is.EqualTo(nested));
        Assert.That(Conflicts(table), Is.EqualTo(new[] { (0, 80L, 2, new[] { "a", "b" }, "b") }));
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        using var listing = JsonDocument.Parse(ls.Out);
        var merged = ReferenceTableMerger.MergeTbl(PersonaTableWriter.Tbl(true, game), mods, PersonaTableWriter.P4GUnit, littleEndian: true);
        Assert.That(listing.RootElement.GetProperty("segments").EnumerateArray().Select(s => (s.GetProperty("offset").GetInt64(), s.GetProperty("length").GetInt32())),
            Is.EqualTo(Spans(merged, 3, littleEndian: true)));
    }

    [Test]
    public void LsJson_P5RNameTbl_NamesTheModsOnBothSegmentsOfAPairTheyChanged()
    {
        const string names = "CPK/EN.CPK/BATTLE/TABLE/NAME.TBL";
        var game = Enumerable.Range(0, 19).Select(p => Enumerable.Range(0, 3).Select(i => $"Name {p}.{i}").ToList()).ToArray();
        var a = game.Select(l => l.ToList()).ToArray();
        a[2][1] = "Arsene the Longer";
        var b = game.Select(l => l.ToList()).ToArray();
        b[2][1] = "Arsene";
        b[5].Add("New Skill");
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "NAME.TBL", PersonaTableWriter.Names(game))]));
        _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL", PersonaTableWriter.Names(a));
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL", PersonaTableWriter.Names(b));

        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["a"], "--mod", _dir["b"], "--no-cache", "--json", names);

        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        using var doc = JsonDocument.Parse(ls.Out);
        var merged = PersonaTableWriter.Names(ReferenceTableMerger.MergeNames(game, [a, b]));
        string ChangedBy(int segment) => (segment / 2) switch { 2 => "a,b", 5 => "b", _ => "" };
        Assert.That(doc.RootElement.GetProperty("segments").EnumerateArray().Select(s => (s.GetProperty("index").GetInt32(), s.GetProperty("offset").GetInt64(),
                s.GetProperty("length").GetInt32(), string.Join(",", s.GetProperty("mods").EnumerateArray().Select(m => m.GetString())))),
            Is.EqualTo(Spans(merged, 38).Select((s, i) => (i, s.Offset, s.Length, ChangedBy(i)))));
        Assert.That(Conflicts(doc.RootElement), Is.EqualTo(new[] { (2, 1L, "Arsene".Length + 1, new[] { "a", "b" }, "b") }));
    }

    // The segments of a TBL read here: per segment an s32 length (big-endian in P5R), the data, zeros to a multiple of 16.
    private static (long Offset, int Length)[] Spans(byte[] tbl, int count, bool littleEndian = false)
    {
        var spans = new (long, int)[count];
        int at = 0;
        for (int i = 0; i < count; i++)
        {
            int length = littleEndian ? BinaryPrimitives.ReadInt32LittleEndian(tbl.AsSpan(at)) : BinaryPrimitives.ReadInt32BigEndian(tbl.AsSpan(at));
            spans[i] = (at + 4, length);
            at = (at + 4 + length + 15) / 16 * 16;
        }
        return spans;
    }
}
