using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Afs;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

public sealed class AfsTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("afs");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase(AfsTestWriter.NameTable.AfterEntryTable)]
    [TestCase(AfsTestWriter.NameTable.BeforeFirstData)]
    [TestCase(AfsTestWriter.NameTable.None)]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal(AfsTestWriter.NameTable table)
    {
        var original = _dir.Write("a.afs", AfsTestWriter.Write(Entries(5, 1), table));
        using var archive = Build(original);
        Assert.That(Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.State), Is.All.EqualTo(EntryState.Original));
    }

    [TestCase(AfsTestWriter.NameTable.AfterEntryTable)]
    [TestCase(AfsTestWriter.NameTable.BeforeFirstData)]
    public void Build_ReplaceBiggerAndSmaller_LaterEntriesMoveAndAllBytesMatch(AfsTestWriter.NameTable table)
    {
        var entries = Entries(6, 2);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries, table));
        var bigger = TestData.Random(100, 9000);
        var smaller = TestData.Random(101, 10);
        using var archive = Build(original, Replace(1, "big.dds", bigger), Replace(4, "small.dds", smaller));

        entries[1] = bigger;
        entries[4] = smaller;
        var names = Enumerable.Range(0, 6).Select(i => $"name_{i}.bin").ToArray();
        VerifyBytes(archive, entries, names);
        Assert.That(archive.Entries.Select(e => e.State), Is.EqualTo(new[]
            { EntryState.Original, EntryState.Replaced, EntryState.Original, EntryState.Original, EntryState.Replaced, EntryState.Original }));
        Assert.That(archive.Entries[1].Origin, Is.EqualTo("mod"));
    }

    [Test]
    public void Build_ChangeAfterUntouchedPrefix_KeepsThePrefixAtItsOriginalOffsets()
    {
        var entries = Entries(4, 3);
        var originalBytes = AfsTestWriter.Write(entries);
        var original = _dir.Write("a.afs", originalBytes);
        using var archive = Build(original, Replace(3, "x.dds", TestData.Random(5, 77)));
        var built = Materialise(archive);
        var before = AfsIndependentReader.Read(original);
        var after = AfsIndependentReader.Read(_dir.Write("out.afs", built));
        Assert.That(after.Take(3).Select(e => e.Offset), Is.EqualTo(before.Take(3).Select(e => e.Offset)));
    }

    [Test]
    public void Build_AddPastTheEnd_GrowsWithEmptySlotsBetween()
    {
        var entries = Entries(3, 4);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries));
        var added = TestData.Random(102, 3000);
        using var archive = Build(original, Replace(6, "new_6.dds", added));

        var expected = entries.Concat(new byte[]?[] { null, null, null, added }).ToList();
        VerifyBytes(archive, expected, ["name_0.bin", "name_1.bin", "name_2.bin", "-", "-", "-", "new_6.dds"]);
        Assert.That(archive.Entries.Skip(3).Select(e => e.State), Is.All.EqualTo(EntryState.Added));
        Assert.That(archive.Entries.Skip(3).Select(e => e.Origin), Is.All.EqualTo("mod"));
    }

    [Test]
    public void Build_Delete_LeavesAnEmptySlot()
    {
        var entries = Entries(4, 5);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries));
        using var archive = Build(original, new EntryChange(EntryKey.ByIndex(2), null, "mod"));

        entries[2] = null;
        VerifyBytes(archive, entries, Enumerable.Range(0, 4).Select(i => $"name_{i}.bin").ToArray());
        Assert.That(archive.Entries[2].State, Is.EqualTo(EntryState.Deleted));
    }

    [Test]
    public void Build_TablePassesFirstDataOffset_HeaderGrowsAndEverythingMoves()
    {
        // 253 entries: 8 + 8·253 + 8 = 2040 fits one sector; 260 do not.
        var entries = Entries(253, 6, maxLength: 40);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries));
        var changes = Enumerable.Range(253, 7).Select(i => Replace(i, $"n{i}.dds", TestData.Random(i, 50))).ToArray();
        using var archive = Build(original, changes);

        var expected = entries.Concat(changes.Select(c => (byte[]?)Bytes(c.Input!))).ToList();
        var read = VerifyBytes(archive, expected, null);
        Assert.That(read.Where(e => e.Size > 0).Min(e => e.Offset), Is.EqualTo(0x1800), "the header ends at 0x1000; the first entry, at 0x800, moves a whole 4 KiB block");
    }

    [Test]
    public void Build_TwentyThousandEntries_ReplacesEveryHundredth()
    {
        var entries = Entries(20_000, 7, maxLength: 24);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries));
        var changes = Enumerable.Range(0, 200).Select(k => Replace(k * 100, $"r{k}.dds", TestData.Random(k, 33))).ToArray();
        using var archive = Build(original, changes);
        foreach (var change in changes)
            entries[change.Key.Index] = Bytes(change.Input!);
        VerifyBytes(archive, entries, null);
    }

    [Test]
    public void Build_NoNameTable_StaysWithoutOne()
    {
        var entries = Entries(3, 8);
        var original = _dir.Write("a.afs", AfsTestWriter.Write(entries, AfsTestWriter.NameTable.None));
        using var archive = Build(original, Replace(0, "z.dds", TestData.Random(9, 5000)));
        var read = AfsIndependentReader.Read(_dir.Write("out.afs", Materialise(archive)));
        Assert.That(read.Select(e => e.Name), Is.All.EqualTo("-"));
    }

    [Test]
    public void Build_NegativeIndexOrName_IsRefusedNamingTheArchive()
    {
        var original = _dir.Write("a.afs", AfsTestWriter.Write(Entries(2, 9)));
        var index = AfsFormat.Instance.ReadIndex(original);
        var byName = new ArchivePatch([new EntryChange(EntryKey.ByName("x.dds"), EntryInput.FromBytes(new byte[1]), "mod")]);
        Assert.That(() => AfsFormat.Instance.Build(index, byName), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("a.afs"));
    }

    [Test]
    public void Detect_AfsAndOtherData_TellsThemApart()
    {
        var afs = AfsTestWriter.Write(Entries(2, 10));
        Assert.That(AfsFormat.Instance.Detect(afs, afs.Length), Is.True);
        Assert.That(AfsFormat.Instance.Detect(TestData.Random(1, 100), 100), Is.False);
        Assert.That(AfsFormat.Instance.Detect("PK\u0003\u0004rest"u8, 8), Is.False);
        Assert.That(AfsFormat.Instance.Detect("AFS\0\xff\xff\xff\x00"u8.ToArray(), 8), Is.False, "count larger than the file");
    }

    internal static byte[]?[] Entries(int count, int seed, int maxLength = 5000)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, count).Select(i => (byte[]?)TestData.Random(seed * 1000 + i, random.Next(1, maxLength))).ToArray();
    }

    private EntryChange Replace(int index, string fileName, byte[] bytes) =>
        new(EntryKey.ByIndex(index), EntryInput.FromFile(_dir.Write($"mod/{fileName}", bytes)), "mod");

    private static byte[] Bytes(EntryInput input) => File.ReadAllBytes(input.Path!);

    private static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        AfsFormat.Instance.Build(AfsFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    internal static byte[] Materialise(EmulatedArchive archive)
    {
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>Checks the built archive with our reader and the independent one: every entry's bytes, and names where given.</summary>
    private IReadOnlyList<AfsIndependentReader.Entry> VerifyBytes(EmulatedArchive archive, IReadOnlyList<byte[]?> expected, string[]? names)
    {
        var path = _dir.Write($"built-{Guid.NewGuid():N}.afs", Materialise(archive));
        var independent = AfsIndependentReader.Read(path);
        Assert.That(independent.Select(e => e.Sha256), Is.EqualTo(expected.Select(e => AfsIndependentReader.Sha256(e ?? []))));
        Assert.That(independent.Select(e => e.Size), Is.EqualTo(expected.Select(e => (long)(e?.Length ?? 0))));
        if (names is not null)
        {
            Assert.That(independent.Select(e => e.Name), Is.EqualTo(names));
            Assert.That(independent.Select(e => e.RecordSize), Is.EqualTo(expected.Select(e => (long)(e?.Length ?? 0))));
        }

        var ours = AfsFormat.Instance.ReadIndex(path);
        var file = File.ReadAllBytes(path);
        Assert.That(ours.Entries.Select(e => file.AsSpan((int)e.Offset, (int)e.Size).ToArray()), Is.EqualTo(expected.Select(e => e ?? [])));
        Assert.That(archive.Entries.Select(e => e.Size), Is.EqualTo(expected.Select(e => (long)(e?.Length ?? 0))));
        return independent;
    }
}
