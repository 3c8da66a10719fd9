using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>
/// Issue 31, "Merged tables": two mods' files for one Persona table inside a CPK (or inside the PAK inside it) are served
/// merged, checked by re-reading the emulated CPK with the independent reader against the independent merger.
/// </summary>
public sealed partial class TableRoutingTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("table-routing");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    // A UNIT.TBL that compresses (so the CPK stores it CRILAYLA-encoded, and routing decodes the original to merge it).
    private static byte[][] UnitSegments() =>
        [new byte[68 * 8], new byte[2 * 40], new byte[2 * 40], TestData.Random(3, 17), new byte[2 * 20], TestData.Random(4, 50)];

    private static byte[][] Copy(byte[][] segments) => segments.Select(s => s.ToArray()).ToArray();

    private (byte[] Game, byte[] A, byte[] B) WriteP5R(bool withExe)
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[0][68 * 2 + 30] = 0x11; // enemy 2, a u16 field: A and B both change it
        a[1][6] = 0x22;
        var b = Copy(game);
        b[0][68 * 2 + 31] = 0x33;
        b[0][68 * 5 + 50] = 0x44;
        b[5] = [.. b[5], 1, 2, 3];
        var original = PersonaTableWriter.Tbl(game);
        if (withExe)
            _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed(
            [new("BATTLE/TABLE", "UNIT.TBL", original, Compress: true), new("FONT", "FONT0.FNT", TestData.Random(5, 900))]));
        var modA = _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        var modB = _dir.Write("b/CRIFsV2Hook/CPK/any/battle/table/unit.tbl", PersonaTableWriter.Tbl(b));
        return (original, File.ReadAllBytes(modA), File.ReadAllBytes(modB));
    }

    [Test]
    public void TwoModsEditingOneP5RTable_AreServedMergedFieldByField()
    {
        var (original, a, b) = WriteP5R(withExe: true);

        var plan = Resolve("a", "b");
        var served = Serve("CPK/EN.CPK", "a", "b");

        var read = CpkIndependentReader.Read(served);
        Assert.That(read.Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").Compressed, Is.False);
        var expectedConflicts = new List<ReferenceTableMerger.Conflict>();
        var expected = ReferenceTableMerger.MergeTbl(original, [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit, expectedConflicts);
        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)), Is.EqualTo(new[]
        {
            ("BATTLE/TABLE/UNIT.TBL", Sha(expected)),
            ("FONT/FONT0.FNT", Sha(TestData.Random(5, 900))),
        }));
        Assert.That(plan.Conflicts, Is.Empty, "a merged table is no whole-entry conflict");
        var report = plan.FindArchive("CPK/EN.CPK")!.Merges.Single();
        Assert.That(report.Conflicts.Select(c => (c.Segment, c.Offset, c.Width, c.Winner)),
            Is.EqualTo(expectedConflicts.Select(c => (c.Segment, c.Offset, c.Width, c.Mods[^1]))));
        Assert.That(report.Conflicts.First(), Is.EqualTo(new MergeConflict(0, 68 * 2 + 30, 2, ["a", "b"], "b")).Using<MergeConflict>(TableMergerTests.SameConflict));
        Assert.That(report.Mods.Select(m => (m.Mod, m.Fields)), Is.EqualTo(new[] { ("a", 2), ("b", 5) }), "b: two fields, and three appended 1-byte fields");
        var change = plan.FindArchive("CPK/EN.CPK")!.Patch.Changes.Single();
        Assert.That((change.Origin, change.Rule), Is.EqualTo(("merged (a, b)", "CRIFsV2Hook/CPK/any")), "the last mod's rule");
    }

    [Test]
    public void WithoutAPersonaExecutable_TheLaterModReplacesTheTableWhole()
    {
        var (_, _, b) = WriteP5R(withExe: false);

        var plan = Resolve("a", "b");
        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a", "b"));

        Assert.That(read.Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256, Is.EqualTo(Sha(b)));
        Assert.That(plan.Conflicts.Single().Entry, Is.EqualTo("BATTLE/TABLE/UNIT.TBL"));
        Assert.That(plan.FindArchive("CPK/EN.CPK")!.Merges, Is.Empty);
    }

    [Test]
    public void TwoModsEditingAP4GTableInsideInitFreeBin_AreServedMerged()
    {
        byte[][] game = [TestData.Random(20, 60 * 3), TestData.Random(21, 2 * 10), TestData.Random(22, 2 * 10)];
        var a = Copy(game);
        a[0][60 + 20] ^= 0xFF;
        var b = Copy(game);
        b[2][3] ^= 0x0F;
        var original = PersonaTableWriter.Tbl(true, game);
        var other = TestData.Random(23, 300);
        _dir.Write("game/P4G.exe", [0x4D, 0x5A]);
        _dir.Write("game/data.cpk", CpkTestWriter.WriteNamed(
            [new("", "init_free.bin", PakTestWriter.Write(InitFreeLayout, [("battle/UNIT.TBL", original), ("battle/OTHER.BIN", other)]))]));
        _dir.Write("a/CRIFsV2Hook/CPK/data/init_free.bin/battle/UNIT.TBL", PersonaTableWriter.Tbl(true, a));
        _dir.Write("b/CRIFsV2Hook/CPK/data/init_free.bin/battle/UNIT.TBL", PersonaTableWriter.Tbl(true, b));

        var members = InitFreeBin(Serve("data.cpk", "a", "b"));

        var expected = ReferenceTableMerger.MergeTbl(original, [("a", PersonaTableWriter.Tbl(true, a)), ("b", PersonaTableWriter.Tbl(true, b))],
            PersonaTableWriter.P4GUnit, littleEndian: true);
        Assert.That(members, Is.EqualTo(new[] { ("battle/UNIT.TBL", Sha(expected)), ("battle/OTHER.BIN", Sha(other)) }));
        // Reported by its path through the CPK and the PAK stored in it, found so letter case aside, and nowhere else.
        var plan = Resolve("a", "b");
        Assert.That(MergedEntryReports.Of(plan).Select(t => (t.Path, t.Report.Mods.Count)), Is.EqualTo(new[] { ("data.cpk/init_free.bin/battle/UNIT.TBL", 2) }));
        Assert.That(MergedEntryReports.Find(plan, "DATA.CPK/init_free.bin/battle/unit.tbl")?.Path, Is.EqualTo("data.cpk/init_free.bin/battle/UNIT.TBL"));
        Assert.That(MergedEntryReports.Find(plan, "data.cpk/battle/UNIT.TBL"), Is.Null);
    }

    [TestCase(true)]
    [TestCase(false)]
    public void AP4GMsgtblBmd_ReplacesMsgTblsLastSegment_AndStaysAnEntryOfItsOwn(bool alsoEditedNames)
    {
        var (game, names, bmd) = WriteP4GMsgTbl();
        _dir.Write("bmd/CRIFsV2Hook/CPK/data/init_free.bin/battle/MSGTBL.bmd", bmd);
        if (alsoEditedNames)
            _dir.Write("names/CRIFsV2Hook/CPK/data/init_free.bin/battle/MSG.TBL", PersonaTableWriter.Tbl(true, names));
        string[] mods = alsoEditedNames ? ["bmd", "names"] : ["bmd"];

        var members = InitFreeBin(Serve("data.cpk", mods));

        var expected = Copy(alsoEditedNames ? names : game);
        expected[4] = bmd;
        Assert.That(members, Is.EqualTo(new[] { ("battle/MSG.TBL", Sha(PersonaTableWriter.Tbl(true, expected))), ("battle/MSGTBL.bmd", Sha(bmd)) }));
        var report = Resolve(mods).FindArchive("data.cpk")!.Nested.Single().Route.Merges.Single();
        Assert.That(report.Mods.Select(m => (m.Mod, m.Fields)), Is.EqualTo(mods.Select(m => (m, 1))));
        var change = Resolve(mods).FindArchive("data.cpk")!.Nested.Single().Route.Patch.Changes.Single(c => c.Key.Name == "battle/MSG.TBL");
        Assert.That((change.Origin, change.Rule), Is.EqualTo(alsoEditedNames
            ? ("merged (bmd, names)", "CRIFsV2Hook/CPK/data")
            : ("merged (bmd)", "merged table")), "with no mod's file for the table, the merge is its own rule");
    }

    [Test]
    public void AP4GMsgtblBmd_AfterAModSpellingMsgTblOtherwise_JoinsThatMerge()
    {
        // The table was noted first, as the mod spells it; the .bmd's segment joins that one merge, not a second.
        var (game, names, bmd) = WriteP4GMsgTbl();
        _dir.Write("names/CRIFsV2Hook/CPK/data/init_free.bin/battle/msg.tbl", PersonaTableWriter.Tbl(true, names));
        _dir.Write("bmd/CRIFsV2Hook/CPK/data/init_free.bin/battle/MSGTBL.bmd", bmd);

        var members = InitFreeBin(Serve("data.cpk", "names", "bmd"));

        var expected = Copy(names);
        expected[4] = bmd;
        // A table is found by its path ignoring case, as mod folders are on Windows; FEF's PAK matches entry names
        // case-sensitively (PakBuilder's plain Dictionary), so the mod's msg.tbl is also a new entry.
        Assert.That(members, Is.EqualTo(new[]
        {
            ("battle/MSG.TBL", Sha(PersonaTableWriter.Tbl(true, expected))), ("battle/msg.tbl", Sha(PersonaTableWriter.Tbl(true, names))),
            ("battle/MSGTBL.bmd", Sha(bmd)),
        }));
    }

    [Test]
    public void AGameTableThatIsNotOne_IsNotMerged_TheLastModsFileReplacesIt_AndTheReportSaysWhy()
    {
        var (_, _, b) = WriteP5R(withExe: true);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", TestData.Random(6, 5))]));

        var report = Resolve("a", "b").FindArchive("CPK/EN.CPK")!.Merges.Single();
        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a", "b"));

        Assert.That(read.Entries.Single().ContentSha256, Is.EqualTo(Sha(b)));
        Assert.That(report.NotApplied.Single(), Does.Contain("the game's BATTLE/TABLE/UNIT.TBL is not a 6-segment table")
            .And.EndWith("; not merged, b's file replaces it whole"));
    }

    [Test]
    public void ATableTheGamesCpkDoesNotHave_IsANewEntry_NotAMerge()
    {
        var (_, a, _) = WriteP5R(withExe: true);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT", "FONT0.FNT", TestData.Random(5, 900))]));

        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "a"));

        Assert.That(read.Entries.Select(e => (e.Path, e.ContentSha256)), Is.EquivalentTo(new[]
            { ("FONT/FONT0.FNT", Sha(TestData.Random(5, 900))), ("BATTLE/TABLE/UNIT.TBL", Sha(a)) }));
        Assert.That(Resolve("a").FindArchive("CPK/EN.CPK")!.Merges, Is.Empty);
    }

    [Test]
    public void ATableInAnArchiveOfTheGameFolderThatIsNoCpk_IsNotMerged_TheLaterModReplacesIt()
    {
        var (original, a, b) = WriteP5R(withExe: true);
        ArchiveEmu.TestSupport.DotNetArchiveWriters.WriteZip(_dir["game/extra.zip"], ("BATTLE/TABLE/UNIT.TBL", original, false));
        _dir.Write("c/extra.zip/BATTLE/TABLE/UNIT.TBL", a);
        var later = _dir.Write("d/extra.zip/BATTLE/TABLE/UNIT.TBL", b);

        var plan = Resolve("c", "d");

        var zip = plan.FindArchive("extra.zip")!;
        Assert.That(zip.Merges, Is.Empty, "Persona tables are merged only inside the game's CPKs");
        Assert.That(zip.Patch.Changes.Single().Input!.Path, Is.EqualTo(later));
    }

    [Test]
    public void AModsLanguageFile_IsWhatItsTableMergeReads_InTheGamesLanguage()
    {
        var (original, a, b) = WriteP5R(withExe: true);
        var spanish = UnitSegments();
        spanish[0][68 * 4 + 40] = 0x55; // the Spanish UNIT.TBL edits another field than a's English one
        var es = _dir.Write("a/FEmulator/L10N/es/UNIT.TBL", PersonaTableWriter.Tbl(spanish));

        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "es", "a", "b"));

        var expected = ReferenceTableMerger.MergeTbl(original, [("a", File.ReadAllBytes(es)), ("b", b)], PersonaTableWriter.P5RLayouts.Unit);
        Assert.That(read.Entries.Single(e => e.Path == "BATTLE/TABLE/UNIT.TBL").ContentSha256, Is.EqualTo(Sha(expected)));
        Assert.That(expected, Is.Not.EqualTo(ReferenceTableMerger.MergeTbl(original, [("a", a), ("b", b)], PersonaTableWriter.P5RLayouts.Unit)));
    }

    [Test]
    public void NameTbl_InAGameNotInEnglish_MergesOnlyTheModFilesLocalisedForItsLanguage()
    {
        List<string>[] Pairs(string first) => Enumerable.Range(0, 19).Select(i => new List<string> { i == 0 ? first : $"name {i}", $"other {i}" }).ToArray();
        var original = PersonaTableWriter.Names(Pairs("Joker"));
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "NAME.TBL", original)]));
        _dir.Write("english/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL", PersonaTableWriter.Names(Pairs("Ace")));
        var localised = Pairs("Joker");
        localised[5][1] = "otro 5";
        _dir.Write("spanish/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL", PersonaTableWriter.Names(Pairs("Joker")));
        _dir.Write("spanish/FEmulator/L10N/es/NAME.TBL", PersonaTableWriter.Names(localised));

        var read = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "es", "english", "spanish"));

        Assert.That(read.Entries.Single().ContentSha256, Is.EqualTo(Sha(PersonaTableWriter.Names(localised))), "only the Spanish file is merged");
        var report = Resolve("es", "english", "spanish").FindArchive("CPK/EN.CPK")!.Merges.Single();
        Assert.That(report.NotApplied.Single(), Is.EqualTo($"english: {_dir["english/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL"]} is not localised "
            + "for es (no FEmulator/L10N/es/ file replaces it); BATTLE/TABLE/NAME.TBL differs by language, so, as Persona Essentials does, only files "
            + "localised for the game's language are merged"));
    }

    [Test]
    public void NameTbl_InAGameNotInEnglish_NoModFileLocalised_ServesTheOriginal_AndSaysWhy()
    {
        List<string>[] Pairs(string first) => Enumerable.Range(0, 19).Select(i => new List<string> { i == 0 ? first : $"name {i}", $"other {i}" }).ToArray();
        var original = PersonaTableWriter.Names(Pairs("Joker"));
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "NAME.TBL", original)]));
        _dir.Write("english/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL", PersonaTableWriter.Names(Pairs("Ace")));

        Assert.That(CpkIndependentReader.Read(Serve("CPK/EN.CPK", "es", "english")).Entries.Single().ContentSha256, Is.EqualTo(Sha(original)));
        var report = Resolve("es", "english").FindArchive("CPK/EN.CPK")!.Merges.Single();
        Assert.That((report.Original, report.NotApplied.Single()), Is.EqualTo(("CPK/EN.CPK", $"english: {_dir["english/P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL"]} "
            + "is not localised for es (no FEmulator/L10N/es/ file replaces it); BATTLE/TABLE/NAME.TBL differs by language, so, as Persona Essentials does, "
            + "only files localised for the game's language are merged")));
    }

    [Test]
    public void TheCacheKeyOfAMergedTable_IsTheSameForTheSameFiles_AndAnotherWhenAModsTableChanges()
    {
        WriteP5R(withExe: true);
        string Key() => RouteKey.For(Resolve("a", "b").FindArchive("CPK/EN.CPK")!, [_dir["a"], _dir["b"]], verifyContent: false).Hash;
        string first = Key();
        Assert.That(Key(), Is.EqualTo(first), "resolved again, nothing changed");

        // One byte of a field only mod a changes, in a segment the merged table takes from a's file in memory or as a run.
        var modA = _dir["a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL"];
        var bytes = File.ReadAllBytes(modA);
        var a = Copy(UnitSegments());
        a[0][68 * 2 + 30] = 0x11;
        a[1][6] = 0x23; // was 0x22
        File.WriteAllBytes(modA, PersonaTableWriter.Tbl(a));
        Assert.That(File.ReadAllBytes(modA), Has.Length.EqualTo(bytes.Length));
        Assert.That(Key(), Is.Not.EqualTo(first));
    }

    private static readonly PakTestLayout InitFreeLayout = PakTestLayout.All.First(l => l.Variant == "V1" && !l.Terminator);

    // P4G's data.cpk holding init_free.bin with battle/MSG.TBL: the game's segments, a copy with one name edited, a MSGTBL.bmd.
    private (byte[][] Game, byte[][] Names, byte[] Bmd) WriteP4GMsgTbl()
    {
        byte[][] game = [TestData.Random(30, 21 * 3), TestData.Random(31, 23 * 2), TestData.Random(32, 21), TestData.Random(33, 21), TestData.Random(34, 200)];
        var names = Copy(game);
        names[0][21 + 4] ^= 0xFF;
        _dir.Write("game/P4G.exe", [0x4D, 0x5A]);
        _dir.Write("game/data.cpk", CpkTestWriter.WriteNamed(
            [new("", "init_free.bin", PakTestWriter.Write(InitFreeLayout, [("battle/MSG.TBL", PersonaTableWriter.Tbl(true, game))]))]));
        return (game, names, TestData.Random(35, 333));
    }

    // The members of the init_free.bin a served data.cpk holds, by name and SHA-256.
    private (string Name, string Sha256)[] InitFreeBin(string servedCpk)
    {
        var entry = CpkIndependentReader.Read(servedCpk).Entries.Single();
        var pak = _dir.Write($"out/init_free-{Guid.NewGuid():N}.bin", File.ReadAllBytes(servedCpk).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray());
        return PakIndependentReader.Read(pak, InitFreeLayout.Variant).Select(m => (m.Name, m.Sha256)).ToArray();
    }

    private RoutePlan Resolve(params string[] mods) => mods is ["es", .. var rest]
        ? new ModRouter(_dir["game"], rest.Select(m => _dir[m]).ToArray()) { Language = "es" }.Resolve()
        : new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()).Resolve();

    private string Serve(string route, params string[] mods)
    {
        var language = mods is ["es", ..] ? "es" : "en";
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], mods.Skip(language == "es" ? 1 : 0).Select(m => _dir[m]).ToArray())
        {
            Language = new Core.Serving.Languages.LanguageChoice(language, "test"),
        });
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write($"served-{Guid.NewGuid():N}.bin", bytes);
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
