using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Pak;
using ArchiveEmu.TestSupport;
using Member = ArchiveEmu.TestSupport.PakIndependentReader.Member;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>PAK originals of every variant from PakTestWriter; every built archive re-read by our reader and the independent Python one.</summary>
public sealed class PakTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("pak");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    public static IEnumerable<TestCaseData> Layouts() =>
        PakTestLayout.All.Select(l => new TestCaseData(l).SetArgDisplayNames(l.ToString()));

    [TestCaseSource(nameof(Layouts))]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal(PakTestLayout layout)
    {
        var original = WriteOriginal(layout, Entries(5, 1));
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.State), Is.All.EqualTo(EntryState.Original));
        Assert.That(archive.File.Segments.Length, Is.EqualTo(1));
    }

    [TestCaseSource(nameof(Layouts))]
    public void Build_ReplaceBiggerAndSmaller_LaterRecordsMoveAndBothReadersSeeTheNewBytes(PakTestLayout layout)
    {
        var entries = Entries(6, 2);
        var original = WriteOriginal(layout, entries);
        var bigger = TestData.Random(100, 9000);
        var smaller = TestData.Random(101, 10);
        using var archive = Build(original, Change(entries[1].Name, bigger), Change(entries[4].Name, smaller));

        entries[1] = (entries[1].Name, bigger);
        entries[4] = (entries[4].Name, smaller);
        Verify(archive, layout, entries);
        Assert.That(archive.Entries.Select(e => e.State), Is.EqualTo(new[]
            { EntryState.Original, EntryState.Replaced, EntryState.Original, EntryState.Original, EntryState.Replaced, EntryState.Original }));
        Assert.That(archive.Entries[1].Origin, Is.EqualTo("mod"));
    }

    [TestCaseSource(nameof(Layouts))]
    public void Build_Add_AppendsRecordsAfterTheLastOneAndKeepsTheEnd(PakTestLayout layout)
    {
        var entries = Entries(3, 3);
        var original = WriteOriginal(layout, entries);
        var added = TestData.Random(102, 3001);
        var second = TestData.Random(103, 64);
        using var archive = Build(original, Change("new/added.bin", added), Change("z.bmd", second));

        entries.Add(("new/added.bin", added));
        entries.Add(("z.bmd", second));
        Verify(archive, layout, entries);
        Assert.That(archive.Entries.Skip(3).Select(e => e.State), Is.All.EqualTo(EntryState.Added));
    }

    [TestCaseSource(nameof(Layouts))]
    public void Build_Delete_DropsTheRecord(PakTestLayout layout)
    {
        var entries = Entries(4, 4);
        var original = WriteOriginal(layout, entries);
        using var archive = Build(original, new EntryChange(EntryKey.ByName(entries[0].Name), null, "mod"),
            new EntryChange(EntryKey.ByName(entries[2].Name), null, "mod"));

        Verify(archive, layout, [entries[1], entries[3]]);
        Assert.That(archive.Entries.Select(e => (e.Name, e.State)), Is.EqualTo(new[]
        {
            (entries[1].Name, EntryState.Original), (entries[3].Name, EntryState.Original),
            (entries[0].Name, EntryState.Deleted), (entries[2].Name, EntryState.Deleted),
        }));
    }

    [TestCaseSource(nameof(Layouts))]
    public void Build_EmptyEntries_AreRecordsOfSizeZero(PakTestLayout layout)
    {
        var entries = Entries(3, 5);
        entries.Insert(1, ("empty.bin", []));
        var original = WriteOriginal(layout, entries);
        var refilled = TestData.Random(104, 700);
        using var archive = Build(original, Change("empty.bin", refilled), Change(entries[2].Name, []), Change("none.bin", []));

        entries[1] = ("empty.bin", refilled);
        entries[2] = (entries[2].Name, []);
        entries.Add(("none.bin", []));
        Verify(archive, layout, entries);
    }

    [TestCase("V1")]
    [TestCase("V1BE")]
    public void Build_V1WhoseLastRecordIsNotPadded_PadsItBeforeTheAddedRecord(string variant)
    {
        var layout = PakTestLayout.All.First(l => l.Variant == variant && !l.Terminator);
        var entries = Entries(3, 8);
        entries[2] = (entries[2].Name, TestData.Random(105, 1001)); // 256 + 1001 is not a multiple of 64
        var bytes = PakTestWriter.Write(layout, entries);
        long lastDataEnd = PakTestWriter.RecordStarts(layout, entries.Select(e => e.Data.Length))[2] + 256 + 1001;
        var original = _dir.Write("original.pak", bytes[..(int)lastDataEnd]);
        Assert.That(PakFormat.Instance.ReadIndex(original).Entries.Select(e => e.Name), Is.EqualTo(entries.Select(e => e.Name)));

        var added = TestData.Random(106, 77);
        using var archive = Build(original, Change("late.bin", added));
        entries.Add(("late.bin", added));
        Verify(archive, layout, entries);
    }

    [Test]
    public void Build_ThreeThousandEntryV2_ReplacesEveryHundredthInFewSegments()
    {
        var layout = PakTestLayout.All.Single(l => l.Variant == "V2");
        var entries = Enumerable.Range(0, 3000).Select(i => ($"m/{i:D5}.bin", TestData.Random(i, i % 97))).ToList();
        var original = WriteOriginal(layout, entries);
        var changes = Enumerable.Range(0, 30).Select(k => Change(entries[k * 100].Item1, TestData.Random(10_000 + k, 100 + k))).ToArray();
        using var archive = Build(original, changes);

        for (int k = 0; k < 30; k++)
            entries[k * 100] = (entries[k * 100].Item1, TestData.Random(10_000 + k, 100 + k));
        Verify(archive, layout, entries);
        Assert.That(archive.File.Segments.Length, Is.LessThanOrEqualTo(3 * 30 + 2), "runs of unchanged records are one segment each");
    }

    [TestCaseSource(nameof(Layouts))]
    public void Build_NameLongerThanTheFieldOrDeleteOfAMissingEntry_IsRefusedNamingIt(PakTestLayout layout)
    {
        var original = WriteOriginal(layout, Entries(2, 6));
        string tooLong = new('n', layout.NameLength);
        Assert.That(() => Build(original, Change(tooLong, [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(tooLong).And.Message.Contains("original.pak"));
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByName("nope.bin"), null, "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("nope.bin").And.Message.Contains("no such entry"));
        using var longest = Build(original, Change(new string('n', layout.NameLength - 1), [2]));
        Assert.That(longest.Count(EntryState.Added), Is.EqualTo(1));
    }

    [TestCaseSource(nameof(Layouts))]
    public void Detect_EachVariant_IsPakWithThatVariant(PakTestLayout layout)
    {
        var original = WriteOriginal(layout, Entries(40, 7));
        var bytes = File.ReadAllBytes(original);
        var head = bytes.AsSpan(0, Math.Min(bytes.Length, ArchiveFormats.DetectHeadSize));
        Assert.That(PakFormat.DetectVariant(head, bytes.Length)?.Name, Is.EqualTo(layout.Variant));
        Assert.That(ArchiveFormats.Detect(original), Is.SameAs(PakFormat.Instance));
        var index = (PakIndex)ArchiveFormats.ReadIndex(original);
        Assert.That(index.Variant.Name, Is.EqualTo(layout.Variant));
        Assert.That(index.HasTerminator, Is.EqualTo(layout.Terminator));
    }

    [Test]
    public void Detect_RandomBytesTextAfsAndTar_AreNotPak()
    {
        var others = new List<(string What, byte[] Bytes)>();
        foreach (var (seed, length) in new[] { (1, 300), (2, 5000), (3, 70_000), (4, 257), (5, 100_000) })
            others.Add(($"random {seed}", TestData.Random(seed, length)));
        var text = string.Concat(Enumerable.Repeat("ArchiveEmu serves modded game archives as virtual files.\n", 200));
        others.Add(("text", System.Text.Encoding.ASCII.GetBytes(text)));
        others.Add(("one long text line", System.Text.Encoding.ASCII.GetBytes(text.Replace('\n', ' '))));
        others.Add(("afs", AfsTestWriter.Write(AfsTests.Entries(4, 1))));
        _dir.Write("t/a.txt", TestData.Random(6, 900));
        _dir.Write("t/b.bin", [1, 2, 3]);
        var tar = ExternalTool.Run("tar", "-cf", _dir["x.tar"], "-C", _dir["t"], "a.txt", "b.bin");
        Assert.That(tar.ExitCode, Is.Zero, tar.ToString());
        others.Add(("tar", File.ReadAllBytes(_dir["x.tar"])));

        foreach (var (what, bytes) in others)
        {
            var head = bytes.AsSpan(0, Math.Min(bytes.Length, ArchiveFormats.DetectHeadSize));
            Assert.That(PakFormat.Instance.Detect(head, bytes.Length), Is.False, what);
        }
        Assert.That(ArchiveFormats.Detect(_dir.Write("a.afs", others.Single(o => o.What == "afs").Bytes))?.Name, Is.EqualTo("afs"));
        Assert.That(ArchiveFormats.Detect(_dir["x.tar"])?.Name, Is.EqualTo("tar"));
    }

    /// <summary>Entries named like Persona files (short enough for V3), random sizes, one byte to 5000.</summary>
    internal static List<(string Name, byte[] Data)> Entries(int count, int seed)
    {
        var random = new Random(seed);
        return Enumerable.Range(0, count).Select(i => ($"f{seed}/e{i:D3}.bin", TestData.Random(seed * 1000 + i, random.Next(1, 5000)))).ToList();
    }

    private string WriteOriginal(PakTestLayout layout, IReadOnlyList<(string Name, byte[] Data)> entries) =>
        _dir.Write("original.pak", PakTestWriter.Write(layout, entries));

    private EntryChange Change(string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(_dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    private static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        PakFormat.Instance.Build(PakFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    /// <summary>Both readers see exactly <paramref name="expected"/>, in order; the layout is exactly as the format says.</summary>
    private void Verify(EmulatedArchive archive, PakTestLayout layout, IReadOnlyList<(string Name, byte[] Data)> expected)
    {
        var path = _dir.Write($"built-{Guid.NewGuid():N}.pak", AfsTests.Materialise(archive));
        var members = expected.Select(e => new Member(e.Name, e.Data.Length, AfsIndependentReader.Sha256(e.Data))).ToArray();
        Assert.That(PakIndependentReader.Read(path, layout.Variant), Is.EqualTo(members));

        var ours = (PakIndex)PakFormat.Instance.ReadIndex(path);
        var file = File.ReadAllBytes(path);
        Assert.That(ours.Variant.Name, Is.EqualTo(layout.Variant));
        Assert.That(ours.HasTerminator, Is.EqualTo(layout.Terminator));
        Assert.That(ours.Entries.Select(e => new Member(e.Name!, e.Size, AfsIndependentReader.Sha256(file.AsSpan((int)e.Offset, (int)e.Size).ToArray()))),
            Is.EqualTo(members));
        Assert.That(file.LongLength, Is.EqualTo(PakTestWriter.ExpectedLength(layout, expected.Select(e => e.Data.Length))));
        Assert.That(ours.Entries.Select(e => e.Offset - layout.HeaderLength),
            Is.EqualTo(PakTestWriter.RecordStarts(layout, expected.Select(e => e.Data.Length))), "every record where the format puts it");
        if (layout.IsV1)
            Assert.That(ours.Entries.Select(e => (e.Offset - layout.HeaderLength) % 64), Is.All.Zero);
        Assert.That(archive.Entries.Where(e => e.State != EntryState.Deleted).Select(e => (e.Name, e.Size)),
            Is.EqualTo(expected.Select(e => ((string?)e.Name, (long)e.Data.Length))));
    }
}
