using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

/// <summary>Seeded random merges of 2–4 mods, checked byte for byte (and conflict for conflict) against the independent reference merger.</summary>
public sealed class TableMergerPropertyTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("tables-prop");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static IEnumerable<TestCaseData> Tables()
    {
        yield return new TestCaseData("BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.P5RLayouts.Unit).SetArgDisplayNames("UNIT");
        yield return new TestCaseData("BATTLE/TABLE/ITEM.TBL", PersonaTableWriter.P5RLayouts.Item).SetArgDisplayNames("ITEM");
        yield return new TestCaseData("BATTLE/TABLE/PERSONA.TBL", PersonaTableWriter.P5RLayouts.Persona).SetArgDisplayNames("PERSONA");
    }

    [TestCaseSource(nameof(Tables))]
    public void Merge_RandomEditsBySeveralMods_MatchesTheReferenceMerger(string path, int[][] layouts)
    {
        var table = TableCatalog.Find(PersonaGame.P5R, path)!;
        for (int seed = 0; seed < 60; seed++)
        {
            var random = new Random(seed);
            var game = layouts.Select(l => Bytes(random, l.Sum() * random.Next(1, 6) + (random.Next(4) == 0 ? random.Next(1, 9) : 0))).ToArray();
            var hot = Enumerable.Range(0, 3).Select(_ => (Segment: random.Next(game.Length), Offset: random.Next(1 << 20))).ToArray();
            int modCount = random.Next(2, 5);
            var mods = new List<(string Mod, byte[] File)>();
            for (int k = 0; k < modCount; k++)
                mods.Add(($"mod{k}", PersonaTableWriter.Tbl(Edit(random, game, hot))));

            var original = PersonaTableWriter.Tbl(game);
            var expectedConflicts = new List<ReferenceTableMerger.Conflict>();
            var expected = ReferenceTableMerger.MergeTbl(original, mods, layouts, expectedConflicts);

            var result = TableMerger.Merge(table, Input($"{seed}/game", original),
                mods.Select(m => new TableModFile(m.Mod, Input($"{seed}/{m.Mod}", m.File))).ToList());
            using var merged = result.File;
            var actual = new byte[merged.Length];
            merged.ReadExactly(0, actual);

            Assert.That(actual, Is.EqualTo(expected), $"seed {seed}");
            Assert.That(result.Report.Conflicts.Select(c => $"{c.Segment}@{c.Offset}+{c.Width}:{string.Join(",", c.Mods)}>{c.Winner}"),
                Is.EqualTo(expectedConflicts.Select(c => $"{c.Segment}@{c.Offset}+{c.Width}:{string.Join(",", c.Mods)}>{c.Mods[^1]}")), $"seed {seed}");
        }
    }

    [Test]
    public void Merge_RandomFlatFiles_MatchTheReferenceMerger()
    {
        foreach (var (path, width) in new[] { ("CALENDAR/CLDWEATHER.BIN", 1), ("EVENT/EVTDATETABLE.BIN", 2), ("INIT/SHDPERSONA.PDD", 4) })
        {
            var table = TableCatalog.Find(PersonaGame.P5R, path)!;
            for (int seed = 0; seed < 30; seed++)
            {
                var random = new Random(seed);
                var game = Bytes(random, random.Next(1, 300));
                var hot = Enumerable.Range(0, 3).Select(_ => (Segment: 0, Offset: random.Next(1 << 20))).ToArray();
                var mods = Enumerable.Range(0, random.Next(2, 5)).Select(k => ($"mod{k}", Edit(random, [game], hot)[0])).ToList();
                var expectedConflicts = new List<ReferenceTableMerger.Conflict>();
                var expected = ReferenceTableMerger.MergeFlat(game, mods, width, expectedConflicts);

                var result = TableMerger.Merge(table, Input($"{path}{seed}/game", game),
                    mods.Select(m => new TableModFile(m.Item1, Input($"{path}{seed}/{m.Item1}", m.Item2))).ToList());
                using var merged = result.File;
                var actual = new byte[merged.Length];
                merged.ReadExactly(0, actual);
                Assert.That(actual, Is.EqualTo(expected), $"{path} seed {seed}");
                Assert.That(result.Report.Conflicts.Select(c => (c.Offset, c.Width)), Is.EqualTo(expectedConflicts.Select(c => (c.Offset, c.Width))), $"{path} seed {seed}");
            }
        }
    }

    private EntryInput Input(string name, byte[] bytes) => EntryInput.FromFile(_dir.Write(name.Replace('.', '_'), bytes));

    private static byte[] Bytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    // A mod: a few random byte edits, often at the shared hot spots (so several mods touch one field), sometimes a grown segment.
    private static byte[][] Edit(Random random, byte[][] game, (int Segment, int Offset)[] hot)
    {
        var mod = game.Select(s => s.ToArray()).ToArray();
        for (int e = random.Next(0, 8); e > 0; e--)
        {
            int s = random.Next(mod.Length);
            if (mod[s].Length == 0)
                continue;
            int at = random.Next(mod[s].Length);
            if (random.Next(2) == 0)
                (s, at) = (hot[e % hot.Length].Segment, hot[e % hot.Length].Offset % Math.Max(1, mod[hot[e % hot.Length].Segment].Length) + random.Next(2));
            if (at < mod[s].Length)
                mod[s][at] = (byte)random.Next(256);
        }
        if (random.Next(3) == 0)
        {
            int s = random.Next(mod.Length);
            mod[s] = [.. mod[s], .. Bytes(random, random.Next(1, 40))];
        }
        return mod;
    }
}
