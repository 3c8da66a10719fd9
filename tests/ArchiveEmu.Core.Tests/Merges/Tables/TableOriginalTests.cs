using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>
/// Issue 31, "Merged tables", as Persona Essentials binds them (p5rpc.modloader <c>P5RTblMerger.PatchTbl</c>): a table several
/// CPKs hold is merged once, against the copy of the CPK of the game's language (else the base CPK, else the first), and that one
/// merged table is served for the path in every CPK, checked with the independent CPK reader against the independent merger.
/// </summary>
public sealed class TableOriginalTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("table-original");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    // A P5R UNIT.TBL whose copies differ by CPK (seed), as a language CPK's table may differ from the base CPK's.
    private static byte[][] UnitSegments(int seed) =>
        [TestData.Random(seed, 68 * 8), new byte[2 * 40], new byte[2 * 40], TestData.Random(seed + 1, 17), new byte[2 * 20], TestData.Random(seed + 2, 50)];

    private static readonly string[] s_cpks = ["CPK/BASE.CPK", "CPK/EN.CPK", "CPK/JP.CPK"];

    /// <summary>The game: each CPK holding its own UNIT.TBL (BASE's first, so its copy is no original by mere order); two mods from <paramref name="from"/>'s.</summary>
    private (Dictionary<string, byte[]> Originals, byte[] A, byte[] B) WriteGame(string from, params string[] cpks)
    {
        var originals = new Dictionary<string, byte[]>();
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        foreach (var (cpk, seed) in cpks.Select((c, i) => (c, 10 * (Array.IndexOf(s_cpks, c) + 1))))
        {
            originals[cpk] = PersonaTableWriter.Tbl(UnitSegments(seed));
            _dir.Write($"game/{cpk}", CpkTestWriter.WriteNamed(
                [new("BATTLE/TABLE", "UNIT.TBL", originals[cpk]), new("FONT", $"FONT{seed}.FNT", TestData.Random(seed + 5, 300))]));
        }
        var seedOf = 10 * (Array.IndexOf(s_cpks, from) + 1);
        var a = UnitSegments(seedOf);
        a[0][68 * 2 + 30] ^= 0x11; // enemy 2's u16 at 30
        var b = UnitSegments(seedOf);
        b[0][68 * 5 + 50] ^= 0x44; // enemy 5's u16 at 50: another field
        b[1][6] ^= 0x22;
        var modA = _dir.Write("a/CRIFsV2Hook/CPK/any/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        var modB = _dir.Write("b/P5REssentials/CPK/EN.CPK/battle/table/unit.tbl", PersonaTableWriter.Tbl(b));
        return (originals, File.ReadAllBytes(modA), File.ReadAllBytes(modB));
    }

    [Test]
    public void ATableInTheBaseAndTheLanguageCpk_IsMergedAgainstTheLanguageCpksCopy_AndServedInBoth()
    {
        var (originals, a, b) = WriteGame("CPK/EN.CPK", "CPK/BASE.CPK", "CPK/EN.CPK");

        var expected = ReferenceTableMerger.MergeTbl(originals["CPK/EN.CPK"], [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        Assert.That(expected, Is.Not.EqualTo(ReferenceTableMerger.MergeTbl(originals["CPK/BASE.CPK"], [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit)),
            "the two originals merge differently");
        foreach (var cpk in new[] { "CPK/BASE.CPK", "CPK/EN.CPK" })
            Assert.That(ServedTable(cpk, "en", "a", "b"), Is.EqualTo(Sha(expected)), cpk);
    }

    [Test]
    public void InAGamePlayedInJapanese_TheJapaneseCpksCopy_IsTheOriginal()
    {
        var (originals, a, b) = WriteGame("CPK/JP.CPK", s_cpks);

        var expected = ReferenceTableMerger.MergeTbl(originals["CPK/JP.CPK"], [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        foreach (var cpk in s_cpks)
            Assert.That(ServedTable(cpk, "ja", "a", "b"), Is.EqualTo(Sha(expected)), cpk);
    }

    [Test]
    public void ATableBoundInSeveralCpks_IsOneMerge_ReportedOnceUnderTheOriginalsCpk()
    {
        WriteGame("CPK/EN.CPK", "CPK/BASE.CPK", "CPK/EN.CPK");

        var plan = new ModRouter(_dir["game"], [_dir["a"], _dir["b"]]).Resolve();

        var merged = plan.Archives.Select(r => r.Patch.Changes.Single().Input).ToArray();
        Assert.That(merged[1], Is.SameAs(merged[0]), "BASE.CPK's entry is EN.CPK's merged table, not a merge of its own");
        var reports = MergedEntryReports.Of(plan).ToArray();
        Assert.That(reports.Select(r => (r.Path, r.Report.Original)), Is.EqualTo(new[] { ("CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", "CPK/EN.CPK") }));
        Assert.That(MergedEntryReports.Find(plan, "cpk/base.cpk/battle/table/unit.tbl")?.Path, Is.EqualTo("CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL"),
            "ls through either CPK finds the one merge");
    }

    [Test]
    public void AKeptRoutePlan_IsStillOneMerge_ReportedOnce_AndServedInBoth()
    {
        var (originals, a, b) = WriteGame("CPK/EN.CPK", "CPK/BASE.CPK", "CPK/EN.CPK");
        var setup = new GameSetup(_dir["game"], [_dir["a"], _dir["b"]])
        {
            Cache = new Core.MergedCache.MergedFileCache(_dir["cache"]), StorePlan = true,
            Language = new Core.Serving.Languages.LanguageChoice("en", "test"),
        };
        setup.ResolveRoutes();

        var plan = setup.ResolveRoutes();

        Assert.That(plan.FromCache, Is.True);
        var merged = plan.Archives.Select(r => r.Patch.Changes.Single().Input).ToArray();
        Assert.That(merged[1], Is.SameAs(merged[0]), "read back shared, as resolved");
        Assert.That(MergedEntryReports.Of(plan).Select(r => (r.Path, r.Report.Original, string.Join(',', r.BoundIn))),
            Is.EqualTo(new[] { ("CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", "CPK/EN.CPK", "CPK/EN.CPK,CPK/BASE.CPK") }));
        var expected = Sha(ReferenceTableMerger.MergeTbl(originals["CPK/EN.CPK"], [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit));
        var game = EmulatedGame.Open(setup);
        Assert.That(game.Plan.FromCache, Is.True);
        foreach (var cpk in new[] { "CPK/BASE.CPK", "CPK/EN.CPK" })
        {
            using var file = game.OpenFile(cpk);
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            var path = _dir.Write($"served/{cpk}", bytes);
            Assert.That(CpkIndependentReader.Read(path).Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256, Is.EqualTo(expected), cpk);
        }
    }

    [Test]
    public void ACpkWithAModOfItsOwnForTheTable_MergesItsFiles_AgainstTheSameOriginal()
    {
        var (originals, a, b) = WriteGame("CPK/EN.CPK", "CPK/BASE.CPK", "CPK/EN.CPK");
        var only = UnitSegments(20);
        only[0][68 * 7 + 4] ^= 0x66; // a game-mirroring mod for BASE.CPK alone
        var c = File.ReadAllBytes(_dir.Write("c/CPK/BASE.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(only)));

        var layouts = PersonaTableWriter.P5RLayouts.Unit;
        Assert.That(ServedTable("CPK/BASE.CPK", "en", "a", "b", "c"),
            Is.EqualTo(Sha(ReferenceTableMerger.MergeTbl(originals["CPK/EN.CPK"], [("a", a), ("b", b), ("c", c)], layouts))));
        Assert.That(ServedTable("CPK/EN.CPK", "en", "a", "b", "c"),
            Is.EqualTo(Sha(ReferenceTableMerger.MergeTbl(originals["CPK/EN.CPK"], [("a", a), ("b", b)], layouts))));
    }

    [Test]
    public void ATableOnlyOneCpkHolds_IsMergedAgainstThatCpksCopy()
    {
        var (originals, a, b) = WriteGame("CPK/BASE.CPK", "CPK/BASE.CPK");

        var expected = ReferenceTableMerger.MergeTbl(originals["CPK/BASE.CPK"], [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        Assert.That(ServedTable("CPK/BASE.CPK", "en", "a", "b"), Is.EqualTo(Sha(expected)));
    }

    [Test]
    public void AP4GTableInsideInitFreeBin_InTheBaseAndTheLanguageCpk_IsMergedAgainstTheLanguageCpksCopy()
    {
        var layout = PakTestLayout.All.First(l => l.Variant == "V1" && !l.Terminator);
        byte[][] Unit(int seed) => [TestData.Random(seed, 60 * 3), TestData.Random(seed + 1, 2 * 10), TestData.Random(seed + 2, 2 * 10)];
        _dir.Write("game/P4G.exe", [0x4D, 0x5A]);
        foreach (var (cpk, seed) in new[] { ("data.cpk", 20), ("data_e.cpk", 30) })
            _dir.Write($"game/{cpk}", CpkTestWriter.WriteNamed(
                [new("", "init_free.bin", PakTestWriter.Write(layout, [("battle/UNIT.TBL", PersonaTableWriter.Tbl(true, Unit(seed)))]))]));
        var a = Unit(30);
        a[0][60 + 20] ^= 0xFF;
        var b = Unit(30);
        b[2][3] ^= 0x0F;
        var modA = _dir.Write("a/CRIFsV2Hook/CPK/data/init_free.bin/battle/UNIT.TBL", PersonaTableWriter.Tbl(true, a));
        var modB = _dir.Write("b/CRIFsV2Hook/CPK/data_e/init_free.bin/battle/UNIT.TBL", PersonaTableWriter.Tbl(true, b));

        var expected = ReferenceTableMerger.MergeTbl(PersonaTableWriter.Tbl(true, Unit(30)), [("a", File.ReadAllBytes(modA)), ("b", File.ReadAllBytes(modB))],
            PersonaTableWriter.P4GUnit, littleEndian: true);
        foreach (var cpk in new[] { "data.cpk", "data_e.cpk" })
        {
            var served = Served(cpk, "en", "a", "b");
            var entry = CpkIndependentReader.Read(served).Entries.Single();
            var pak = _dir.Write($"out/{cpk}.bin", File.ReadAllBytes(served).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray());
            Assert.That(PakIndependentReader.Read(pak, layout.Variant).Single().Sha256, Is.EqualTo(Sha(expected)), cpk);
        }
    }

    private string ServedTable(string cpk, string language, params string[] mods) =>
        CpkIndependentReader.Read(Served(cpk, language, mods)).Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256;

    private string Served(string cpk, string language, params string[] mods)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], mods.Select(m => _dir[m]).ToArray())
        {
            Language = new Core.Serving.Languages.LanguageChoice(language, "test"),
        });
        using var file = game.OpenFile(cpk);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write($"served-{Guid.NewGuid():N}.bin", bytes);
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
