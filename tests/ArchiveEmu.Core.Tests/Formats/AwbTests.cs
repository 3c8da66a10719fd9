using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>AWB originals from AwbTestWriter; every built archive re-read by the independent Python reader and by ours.</summary>
public sealed class AwbTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("awb");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase(2, 2)]
    [TestCase(4, 2)]
    [TestCase(8, 4)]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal(int positionWidth, int idWidth)
    {
        var options = new AwbTestWriter.Options(positionWidth, idWidth);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(Entries(5, 1, maxLength: 2000), options));
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.State), Is.All.EqualTo(EntryState.Original));
    }

    [TestCase(0x20)]
    [TestCase(1)]
    [TestCase(0x800)]
    public void Build_ReplaceBiggerAndSmaller_LaterEntriesMoveAndAllBytesMatch(int alignment)
    {
        var entries = Entries(6, 2);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries, new AwbTestWriter.Options(Alignment: alignment)));
        var bigger = TestData.Random(100, 9001);
        var smaller = TestData.Random(101, 7);
        using var archive = Build(original, Replace(1, bigger), Replace(4, smaller));

        entries[1] = bigger;
        entries[4] = smaller;
        var read = Verify(archive, entries);
        Assert.That(read.Alignment, Is.EqualTo(alignment));
        Assert.That(archive.Entries.Select(e => e.State), Is.EqualTo(new[]
            { EntryState.Original, EntryState.Replaced, EntryState.Original, EntryState.Original, EntryState.Replaced, EntryState.Original }));
        Assert.That(archive.Entries[1].Origin, Is.EqualTo("mod"));
    }

    [Test]
    public void Build_AddPastTheEnd_GrowsWithEmptyEntriesAndIdsContinueAfterTheLargest()
    {
        var entries = Entries(3, 3);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries, new AwbTestWriter.Options(Ids: [4, 9, 30])));
        var added = TestData.Random(102, 3000);
        using var archive = Build(original, Replace(5, added));

        var read = Verify(archive, entries.Concat(new byte[]?[] { null, null, added }).ToList());
        Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new long[] { 4, 9, 30, 31, 32, 33 }));
        Assert.That(archive.Entries.Skip(3).Select(e => e.State), Is.All.EqualTo(EntryState.Added));
        Assert.That(archive.Entries.Skip(3).Select(e => e.Origin), Is.All.EqualTo("mod"));
    }

    [Test]
    public void Build_Delete_LeavesAnEmptyEntryInPlace()
    {
        var entries = Entries(4, 4);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries));
        using var archive = Build(original, new EntryChange(EntryKey.ByIndex(2), null, "mod"));

        entries[2] = null;
        Verify(archive, entries);
        Assert.That(archive.Entries[2].State, Is.EqualTo(EntryState.Deleted));
        Assert.That(archive.Entries[2].Size, Is.Zero);
    }

    [Test]
    public void Build_DeletePastTheEnd_IsRefusedNamingTheArchive()
    {
        var original = _dir.Write("a.awb", AwbTestWriter.Write(Entries(2, 5)));
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByIndex(7), null, "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("a.awb").And.Message.Contains("cannot delete"));
    }

    [Test]
    public void Build_TwoBytePositionsOutgrown_WidensToFourAndEverythingMoves()
    {
        var entries = Entries(4, 6, maxLength: 3000);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries, new AwbTestWriter.Options(PositionWidth: 2)));
        var big = TestData.Random(103, 70_000);
        using var archive = Build(original, Replace(1, big));

        entries[1] = big;
        var read = Verify(archive, entries);
        Assert.That(read.PositionWidth, Is.EqualTo(4));
        Assert.That(archive.File.Length, Is.GreaterThan(ushort.MaxValue));
    }

    [Test]
    public void Build_AnyChange_KeepsVersionSubkeyIdWidthAndIds()
    {
        var ids = new uint[] { 100, 200, 300 };
        var options = new AwbTestWriter.Options(IdWidth: 4, Subkey: 0xBEEF, Version: 1, Ids: ids);
        var entries = Entries(3, 7);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries, options));
        using var archive = Build(original, Replace(0, TestData.Random(104, 10)));

        entries[0] = TestData.Random(104, 10);
        var read = Verify(archive, entries);
        Assert.That((read.Version, read.IdWidth, read.Subkey, read.PositionWidth), Is.EqualTo((1, 4, 0xBEEF, 4)));
        Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(ids.Select(i => (long)i)));
    }

    [Test]
    public void Build_OneReplacementInTheMiddle_UnchangedRunsAreOneSliceEach()
    {
        var entries = Entries(40, 8, maxLength: 300);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries));
        using var archive = Build(original, Replace(20, TestData.Random(105, 333)));

        entries[20] = TestData.Random(105, 333);
        Verify(archive, entries);
        var fromOriginal = archive.File.Segments.ToArray().Count(s => s.Source is FileSource f && f.Path == archive.Original.Path);
        Assert.That(fromOriginal, Is.EqualTo(2), "entries 0-19 and 21-39 should each be one slice of the original");
    }

    [Test]
    public void Build_ThreeThousandEntries_ReplacesEveryHundredth()
    {
        var entries = Entries(3000, 9, maxLength: 40);
        var original = _dir.Write("a.awb", AwbTestWriter.Write(entries));
        var changes = Enumerable.Range(0, 30).Select(k => Replace(k * 100, TestData.Random(k, 50 + k))).ToArray();
        using var archive = Build(original, changes);
        foreach (var (change, k) in changes.Select((c, k) => (c, k)))
            entries[change.Key.Index] = TestData.Random(k, 50 + k);
        Verify(archive, entries);
    }

    [Test]
    public void Build_ChangeByName_IsRefusedNamingTheArchive()
    {
        var original = _dir.Write("a.awb", AwbTestWriter.Write(Entries(2, 10)));
        var byName = new EntryChange(EntryKey.ByName("x.hca"), EntryInput.FromBytes(new byte[1]), "mod");
        Assert.That(() => Build(original, byName), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("a.awb"));
    }

    [Test]
    public void Detect_AwbAndOtherData_TellsThemApart()
    {
        var awb = AwbTestWriter.Write(Entries(2, 11));
        Assert.That(AwbFormat.Instance.Detect(awb, awb.Length), Is.True);
        Assert.That(ArchiveFormats.Detect(_dir.Write("d.awb", awb)), Is.SameAs(AwbFormat.Instance));
        Assert.That(AwbFormat.Instance.Detect(TestData.Random(1, 100), 100), Is.False);
        Assert.That(AwbFormat.Instance.Detect(AfsTestWriter.Write(AfsTests.Entries(2, 1)), 10_000), Is.False);
        var badWidth = awb.ToArray();
        badWidth[5] = 3;
        Assert.That(AwbFormat.Instance.Detect(badWidth, badWidth.Length), Is.False);
    }

    internal static byte[]?[] Entries(int count, int seed, int maxLength = 5000)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, count).Select(i => (byte[]?)TestData.Random(seed * 1000 + i, random.Next(1, maxLength))).ToArray();
    }

    private EntryChange Replace(int index, byte[] bytes) =>
        new(EntryKey.ByIndex(index), EntryInput.FromFile(_dir.Write($"mod/{index}_{Guid.NewGuid():N}.hca", bytes)), "mod");

    private static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    /// <summary>Checks the built archive with the independent reader (structure and bytes) and with ours.</summary>
    private AwbIndependentReader.Archive Verify(EmulatedArchive archive, IReadOnlyList<byte[]?> expected)
    {
        var path = _dir.Write($"built-{Guid.NewGuid():N}.awb", AfsTests.Materialise(archive));
        var independent = AwbIndependentReader.Read(path);
        Assert.That(independent.Entries.Select(e => e.Sha256), Is.EqualTo(expected.Select(e => AfsIndependentReader.Sha256(e ?? []))));
        Assert.That(independent.Entries.Select(e => e.Offset % Math.Max(1, independent.Alignment)), Is.All.Zero, "every entry starts aligned");

        var ours = AwbFormat.Instance.ReadIndex(path);
        var file = File.ReadAllBytes(path);
        Assert.That(ours.Entries.Select(e => file.AsSpan((int)e.Offset, (int)e.Size).ToArray()), Is.EqualTo(expected.Select(e => e ?? [])));
        Assert.That(archive.Entries.Select(e => e.Size), Is.EqualTo(expected.Select(e => (long)(e?.Length ?? 0))));
        return independent;
    }
}
