using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>P4G's and P3P's tables: little-endian containers, segments Essentials keeps, files that replace a segment, itemtbl.bin.</summary>
public sealed class PortableTableMergerTests
{
    private TempDirectory _dir = null!;
    private int _files;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("tables-p4g");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private EntryInput Input(byte[] bytes) => EntryInput.FromFile(_dir.Write($"f{_files++}.bin", bytes));

    private static byte[] Materialise(MergedTable merged)
    {
        using var file = merged.File;
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    private static byte[][] Copy(byte[][] segments) => segments.Select(s => s.ToArray()).ToArray();

    [Test]
    public void Merge_P4GUnitTable_RandomEdits_MatchTheReferenceWithLittleEndianLengths()
    {
        var table = TableCatalog.Find(PersonaGame.P4G, "init_free.bin/battle/UNIT.TBL")!;
        for (int seed = 0; seed < 40; seed++)
        {
            var random = new Random(seed);
            var game = new[] { TestData.Random(seed, 60 * random.Next(1, 5)), TestData.Random(seed + 1, 2 * random.Next(1, 30)), TestData.Random(seed + 2, 2 * random.Next(1, 30)) };
            var mods = new List<(string Mod, byte[] File)>();
            for (int k = random.Next(2, 5); k > 0; k--)
            {
                var mod = Copy(game);
                for (int e = random.Next(1, 6); e > 0; e--)
                {
                    int s = random.Next(3);
                    mod[s][random.Next(Math.Min(mod[s].Length, 12))] ^= (byte)random.Next(1, 256); // the first bytes, so mods collide
                }
                if (random.Next(3) == 0)
                    mod[1] = [.. mod[1], .. TestData.Random(seed * 10 + k, random.Next(1, 9))];
                mods.Add(($"m{k}", PersonaTableWriter.Tbl(true, mod)));
            }
            var original = PersonaTableWriter.Tbl(true, game);
            var expected = ReferenceTableMerger.MergeTbl(original, mods, PersonaTableWriter.P4GUnit, littleEndian: true);

            var merged = TableMerger.Merge(table, Input(original), mods.Select(m => new TableModFile(m.Mod, Input(m.File))).ToList());
            Assert.That(Materialise(merged), Is.EqualTo(expected), $"seed {seed}");
        }
    }

    [Test]
    public void Merge_P3PEffectTable_KeepsTheSegmentsEssentialsDoesNotMergeAndSaysSo()
    {
        var table = TableCatalog.Find(PersonaGame.P3P, @"INIT_FREE.BIN\battle\effect.tbl")!;
        var game = Enumerable.Range(0, 5).Select(i => TestData.Random(50 + i, 20 + i)).ToArray();
        var mod = Copy(game);
        mod[0][3] ^= 0xFF;
        mod[2][1] ^= 0xFF;

        var merged = TableMerger.Merge(table, Input(PersonaTableWriter.Tbl(true, game)), [new("A", Input(PersonaTableWriter.Tbl(true, mod)))]);

        var expected = Copy(game);
        expected[0][3] = mod[0][3];
        Assert.That(merged.Report.NotApplied.Single(), Does.StartWith("A: ").And.Contain("segment 2").And.Contain("not applied"));
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(true, expected)));
    }

    [Test]
    public void Merge_P4GMessageTable_TakesTheLastModsMsgtblBmdAsItsLastSegment()
    {
        var table = TableCatalog.Find(PersonaGame.P4G, "init_free.bin/battle/MSG.TBL")!;
        var game = new[] { TestData.Random(60, 21 * 4), TestData.Random(61, 23 * 3), TestData.Random(62, 21 * 2), TestData.Random(63, 21 * 2), TestData.Random(64, 300) };
        var names = Copy(game);
        names[1][23 + 5] ^= 0xFF; // one byte of skill name 1: the whole 23-byte name is the mod's
        var bmdA = TestData.Random(65, 500);
        var bmdB = TestData.Random(66, 40);

        var merged = TableMerger.Merge(table, Input(PersonaTableWriter.Tbl(true, game)),
        [
            new("A", Input(bmdA), "MSGTBL.bmd"),
            new("Names", Input(PersonaTableWriter.Tbl(true, names))),
            new("B", Input(bmdB), "msgtbl.BMD"),
        ]);

        var expected = Copy(game);
        expected[1] = names[1];
        expected[4] = bmdB;
        Assert.That(Materialise(merged), Is.EqualTo(PersonaTableWriter.Tbl(true, expected)));
        Assert.That(merged.Report.Conflicts.Single(), Is.EqualTo(new MergeConflict(4, 0, 40, ["A", "B"], "B")).Using<MergeConflict>(TableMergerTests.SameConflict));
        Assert.That(merged.Report.Mods.Select(m => (m.Mod, m.Fields, m.FieldsWon)), Is.EqualTo(new[] { ("A", 1, 0), ("Names", 1, 1), ("B", 1, 1) }));
    }

    [Test]
    public void Merge_P4GItemTable_GrowsWithAddedItemsAndRewritesTheCount()
    {
        var table = TableCatalog.Find(PersonaGame.P4G, "init_free.bin/init/itemtbl.bin")!;
        int[][] layouts = [[1, 1, 1, 1, 1, 2, 1, 2, 2, 2, 2, 4, .. Enumerable.Repeat(2, 24)], [1], [24]];
        byte[] Items(int count, byte[] info, byte[] middle, byte[] names) => [.. BitConverter.GetBytes(count), .. info[..(count * 68)], .. middle, .. names[..(count * 24)]];
        var info = TestData.Random(70, 68 * 6);
        var middle = TestData.Random(71, 28);
        var itemNames = TestData.Random(72, 24 * 6);
        var game = Items(4, info, middle, itemNames);
        var moreItems = Items(6, info, middle, itemNames);
        var editedInfo = info.ToArray();
        editedInfo[68 + 17] ^= 0xFF; // inside item 1's u32 at 16
        var edited = Items(4, editedInfo, middle, itemNames);

        var mods = new List<(string, byte[])> { ("More", moreItems), ("Edit", edited) };
        var merged = TableMerger.Merge(table, Input(game), mods.Select(m => new TableModFile(m.Item1, Input(m.Item2))).ToList());

        var expected = ReferenceTableMerger.MergeItems(game, mods, layouts, [0, 28, 0], [68, 0, 24]);
        Assert.That(BitConverter.ToInt32(expected, 0), Is.EqualTo(6));
        Assert.That(Materialise(merged), Is.EqualTo(expected));
    }

    [Test]
    public void Merge_P3PItemTable_CountsTheItemsOfItsMiddleSegment()
    {
        var table = TableCatalog.Find(PersonaGame.P3P, "init_free.bin/init/itemtbl.bin")!;
        byte[] Items(int count, byte[] head, byte[] info, byte[] tail) => [.. BitConverter.GetBytes(count), .. head, .. info[..(count * 56)], .. tail];
        var head = TestData.Random(80, 12);
        var info = TestData.Random(81, 56 * 5);
        var tail = TestData.Random(82, 2244);
        var game = Items(3, head, info, tail);
        var editedTail = tail.ToArray();
        editedTail[2000] ^= 0xFF;
        var mods = new List<(string, byte[])> { ("More", Items(5, head, info, tail)), ("Tail", Items(3, head, info, editedTail)) };

        var merged = TableMerger.Merge(table, Input(game), mods.Select(m => new TableModFile(m.Item1, Input(m.Item2))).ToList());

        Assert.That(Materialise(merged), Is.EqualTo(Items(5, head, info, editedTail)));
    }
}
