using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.Merges.Tables;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Merges.Tables;

public sealed class NameTableMergerTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("names");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static MergeableTable Name => TableCatalog.Find(PersonaGame.P5R, "battle/table/name.tbl")!;

    private static List<string>[] GameNames() =>
        Enumerable.Range(0, 19).Select(p => Enumerable.Range(0, 3 + p % 4).Select(i => $"Name {p}.{i}").ToList()).ToArray();

    private static List<string>[] Copy(List<string>[] names) => names.Select(l => l.ToList()).ToArray();

    private EntryInput Input(string name, byte[] bytes) => EntryInput.FromFile(_dir.Write(name, bytes));

    [Test]
    public void Merge_ChangedAndAddedStrings_AreKeptPerIndexWithTheLaterModWinning()
    {
        var game = GameNames();
        var a = Copy(game);
        a[0][1] = "Arsene (A)";
        a[4].Add("New persona A");
        a[7][0] = "Shared (A)";
        var b = Copy(game);
        b[2][2] = "Jack Frost (B)";
        b[4].Add("New persona B");
        b[4].Add("Another B");
        b[7][0] = "Shared (B)";

        var result = TableMerger.Merge(Name, Input("game.tbl", PersonaTableWriter.Names(game)),
            [new("A", Input("a.tbl", PersonaTableWriter.Names(a))), new("B", Input("b.tbl", PersonaTableWriter.Names(b)))]);
        using var merged = result.File;
        var actual = new byte[merged.Length];
        merged.ReadExactly(0, actual);

        var expected = ReferenceTableMerger.MergeNames(game, [a, b]);
        Assert.That(expected[4][^2..], Is.EqualTo(new[] { "New persona B", "Another B" }));
        Assert.That(actual, Is.EqualTo(PersonaTableWriter.Names(expected)));
        Assert.That(result.Report.Conflicts.Select(c => (c.Segment, c.Offset, c.Width, c.Winner, string.Join(",", c.Mods))),
            Is.EqualTo(new[] { (4, 3L, "New persona B".Length + 1, "B", "A,B"), (7, 0L, "Shared (B)".Length + 1, "B", "A,B") }));
        Assert.That(result.Report.Mods, Is.EqualTo(new[] { new MergeContribution("A", 3, 1), new MergeContribution("B", 4, 4) }));
    }

    [Test]
    public void Merge_RandomNameEdits_MatchTheReferenceMerger()
    {
        for (int seed = 0; seed < 40; seed++)
        {
            var random = new Random(seed);
            var game = GameNames();
            var mods = new List<List<string>[]>();
            for (int k = random.Next(2, 5); k > 0; k--)
            {
                var mod = Copy(game);
                for (int e = random.Next(0, 6); e > 0; e--)
                {
                    int pair = random.Next(3); // few pairs, so mods collide
                    int index = random.Next(mod[pair].Count + 2);
                    if (index < mod[pair].Count)
                        mod[pair][index] = $"s{seed}m{k}e{e}" + new string('x', random.Next(30));
                    else
                        mod[pair].Add($"added s{seed}m{k}e{e}");
                }
                mods.Add(mod);
            }
            var result = TableMerger.Merge(Name, Input($"g{seed}.tbl", PersonaTableWriter.Names(game)),
                mods.Select((m, k) => new TableModFile($"m{k}", Input($"m{seed}_{k}.tbl", PersonaTableWriter.Names(m)))).ToList());
            using var merged = result.File;
            var actual = new byte[merged.Length];
            merged.ReadExactly(0, actual);
            Assert.That(actual, Is.EqualTo(PersonaTableWriter.Names(ReferenceTableMerger.MergeNames(game, mods))), $"seed {seed}");
        }
    }

    [Test]
    public void Merge_AStringWithoutItsNul_LeavesThatModOutWithTheReason()
    {
        var game = GameNames();
        var broken = PersonaTableWriter.Names(game);
        broken[^1] = 0; // keeps the container whole
        var bad = PersonaTableWriter.Tbl([.. Enumerable.Range(0, 37).Select(_ => new byte[] { 0, 0 }), new byte[] { 65, 66 }]);

        var result = TableMerger.Merge(Name, Input("game.tbl", PersonaTableWriter.Names(game)), [new("Bad", Input("bad.tbl", bad))]);
        using var merged = result.File;

        Assert.That(result.Report.NotApplied.Single(), Does.StartWith("Bad: ").And.Contain("no NUL"));
        var actual = new byte[merged.Length];
        merged.ReadExactly(0, actual);
        Assert.That(actual, Is.EqualTo(PersonaTableWriter.Names(game)));
    }
}
