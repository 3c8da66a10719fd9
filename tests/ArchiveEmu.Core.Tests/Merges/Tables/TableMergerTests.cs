using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

public sealed class TableMergerTests
{
    private const int EnemyRecord = 68;
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("tables");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static MergeableTable Unit => TableCatalog.Find(PersonaGame.P5R, "BATTLE/TABLE/UNIT.TBL")!;

    // A UNIT.TBL with 4 enemies and small other segments, every byte distinct enough to see where it came from.
    private static byte[][] UnitSegments() =>
    [
        TestData.Random(1, 4 * EnemyRecord), TestData.Random(2, 40), TestData.Random(3, 30),
        TestData.Random(4, 17), TestData.Random(5, 8), TestData.Random(6, 100),
    ];

    private static byte[][] Copy(byte[][] segments) => segments.Select(s => s.ToArray()).ToArray();

    private TableModFile Mod(string name, byte[] bytes) => new(name, EntryInput.FromFile(_dir.Write($"{name}/UNIT.TBL", bytes)));

    private EntryInput Original(byte[] bytes)
    {
        // The game's table as a slice of a larger file, as an entry stored in a CPK is.
        var path = _dir.Write("game.cpk", [.. TestData.Random(9, 333), .. bytes, .. TestData.Random(10, 77)]);
        return EntryInput.FromFileSlice(path, 333, bytes.Length);
    }

    private static byte[] Materialise(VirtualFile file)
    {
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    [Test]
    public void Merge_TwoModsChangingDifferentEnemies_KeepsBothEdits()
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[0][EnemyRecord * 1 + 22] ^= 0xFF; // enemy 1's first u16 of the 2x12 run
        var b = Copy(game);
        b[0][EnemyRecord * 3 + 50] ^= 0x0F; // enemy 3, a byte field

        using var merged = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)),
            [Mod("A", PersonaTableWriter.Tbl(a)), Mod("B", PersonaTableWriter.Tbl(b))]).File;

        var expected = Copy(game);
        expected[0][EnemyRecord * 1 + 22] = a[0][EnemyRecord * 1 + 22];
        expected[0][EnemyRecord * 3 + 50] = b[0][EnemyRecord * 3 + 50];
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(expected)));
    }

    [Test]
    public void Merge_OneByteOfATwoByteFieldChanged_TakesTheWholeFieldFromThatMod()
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[1][10] ^= 0xFF; a[1][11] ^= 0xFF; // A sets the u16 at 10 whole
        var b = Copy(game);
        b[1][11] ^= 0x01; // B changes only its second byte: the field is B's, both bytes

        var result = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)),
            [Mod("A", PersonaTableWriter.Tbl(a)), Mod("B", PersonaTableWriter.Tbl(b))]);
        using var merged = result.File;

        var expected = Copy(game);
        expected[1][10] = b[1][10]; // the game's byte, carried by B's field
        expected[1][11] = b[1][11];
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(expected)));
        Assert.That(result.Report.Conflicts, Is.EqualTo(new[] { new MergeConflict(1, 10, 2, ["A", "B"], "B") }).Using<MergeConflict>(SameConflict));
        Assert.That(result.Report.Mods, Is.EqualTo(new[] { new MergeContribution("A", 1, 0), new MergeContribution("B", 1, 1) }));
    }

    [Test]
    public void Merge_GrownSegments_TakeTheLongestAndTheLaterModWhereTwoAppend()
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[5] = [.. game[5], .. TestData.Random(20, 30)];
        var b = Copy(game);
        b[5] = [.. game[5], .. TestData.Random(21, 12)];

        var result = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)),
            [Mod("A", PersonaTableWriter.Tbl(a)), Mod("B", PersonaTableWriter.Tbl(b))]);
        using var merged = result.File;

        var expected = Copy(game);
        expected[5] = [.. game[5], .. b[5].AsSpan(100, 12).ToArray(), .. a[5].AsSpan(112, 18).ToArray()];
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(expected)));
        Assert.That(result.Report.Conflicts, Is.EqualTo(new[] { new MergeConflict(5, 100, 12, ["A", "B"], "B") }).Using<MergeConflict>(SameConflict));
    }

    [Test]
    public void Merge_AModThatIsNoTable_IsReportedAndLeftOut()
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[2][4] ^= 0xFF;
        var broken = PersonaTableWriter.Tbl(a)[..40];

        var result = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)),
            [Mod("Broken", broken), Mod("A", PersonaTableWriter.Tbl(a))]);
        using var merged = result.File;

        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(a)));
        Assert.That(result.Report.NotApplied, Has.Count.EqualTo(1));
        Assert.That(result.Report.NotApplied[0], Does.StartWith("Broken: ").And.Contain("not applied").And.Contain("UNIT.TBL"));
    }

    [Test]
    public void Merge_AShorterSegment_KeepsTheGameBytesPastItAndSaysSo()
    {
        var game = UnitSegments();
        var a = Copy(game);
        a[5] = game[5][..60];
        a[5][0] ^= 0xFF;

        var result = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)), [Mod("A", PersonaTableWriter.Tbl(a))]);
        using var merged = result.File;

        var expected = Copy(game);
        expected[5][0] = a[5][0];
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(expected)));
        Assert.That(result.Report.NotApplied.Single(), Does.Contain("segment 5 is shorter"));
    }

    [Test]
    public void Merge_AnOriginalThatIsNoTable_ThrowsNamingIt()
    {
        var original = Original(new byte[] { 0, 0, 1, 0, 1, 2 });
        Assert.That(() => TableMerger.Merge(Unit, original, []),
            Throws.InstanceOf<InvalidDataException>().With.Message.Contains("game.cpk").And.Message.Contains("UNIT.TBL"));
    }

    [Test]
    public void Merge_LongUnchangedRuns_AreSlicesOfTheFilesNotCopies()
    {
        var game = UnitSegments();
        game[0] = TestData.Random(30, 40 * EnemyRecord);
        var a = Copy(game);
        a[0][EnemyRecord * 20 + 30] ^= 0xFF;

        using var merged = TableMerger.Merge(Unit, Original(PersonaTableWriter.Tbl(game)), [Mod("A", PersonaTableWriter.Tbl(a))]).File;

        var fileBytes = merged.Segments.ToArray().Where(s => s.Source is FileSource).Sum(s => s.Length);
        Assert.That(fileBytes, Is.GreaterThan(game[0].Length - MergedTableWriter.MinSliceLength));
        Assert.That(merged.Segments.ToArray().Count(s => s.Source is FileSource f && f.Path.EndsWith("UNIT.TBL", StringComparison.Ordinal)), Is.Zero,
            "a 2-byte field is copied into memory, not sliced from the mod's file");
    }

    [Test]
    public void Merge_FlatFourByteFile_WidensToFourBytesAndGrows()
    {
        var pdd = TableCatalog.Find(PersonaGame.P5R, "init/shdpersonaenemy.pdd")!;
        var game = TestData.Random(40, 64);
        var a = game.ToArray();
        a[9] ^= 0xFF;
        byte[] b = [.. game, 1, 2, 3, 4, 5];
        b[10] ^= 0x01;

        var result = TableMerger.Merge(pdd, Original(game), [Mod("A", a), Mod("B", b)]);
        using var merged = result.File;

        var expected = game.Concat(new byte[] { 1, 2, 3, 4, 5 }).ToArray();
        expected[10] = b[10];
        Assert.That(Materialise(merged), Is.EqualTo(expected));
        Assert.That(result.Report.Conflicts.Single(), Is.EqualTo(new MergeConflict(0, 8, 4, ["A", "B"], "B")).Using<MergeConflict>(SameConflict));
    }

    internal static bool SameConflict(MergeConflict x, MergeConflict y) =>
        x.Segment == y.Segment && x.Offset == y.Offset && x.Width == y.Width && x.Winner == y.Winner && x.Mods.SequenceEqual(y.Mods);
}
