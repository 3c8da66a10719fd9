using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>IMG v2 originals from ImgTestWriter; every built archive re-read by the independent Python reader and by ours.</summary>
public sealed class ImgTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("img");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal()
    {
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(Entries(6, 1)));
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.State), Is.All.EqualTo(EntryState.Original));
    }

    [Test]
    public void Build_ReplaceBiggerAndSmaller_SizesInSectorsAndAllBytesMatch()
    {
        var entries = Entries(5, 2);
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        var bigger = TestData.Random(100, 5 * 2048 + 3);
        var smaller = TestData.Random(101, 10);
        using var archive = Build(original, Change("e1.txd", bigger), Change("e3.dff", smaller));

        entries[1] = ("e1.txd", bigger);
        entries[3] = ("e3.dff", smaller);
        var read = Verify(archive, entries);
        Assert.That(read[1].Sectors, Is.EqualTo(6));
        Assert.That(read[3].Sectors, Is.EqualTo(1));
        Assert.That(archive.Entries.Select(e => (e.State, e.Origin, e.Size)), Is.EqualTo(new[]
        {
            (EntryState.Original, "original", read[0].Sectors * 2048L), (EntryState.Replaced, "mod", 6 * 2048), (EntryState.Original, "original", read[2].Sectors * 2048L),
            (EntryState.Replaced, "mod", 2048), (EntryState.Original, "original", read[4].Sectors * 2048L),
        }));
    }

    [Test]
    public void Build_ReplaceInOtherCase_ReplacesTheEntryAndKeepsTheOriginalSpelling()
    {
        var entries = new List<(string, byte[])> { ("player.txd", TestData.Random(1, 3000)), ("other.dff", TestData.Random(2, 100)) };
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        var replacement = TestData.Random(3, 4100);
        using var archive = Build(original, Change("PLAYER.TXD", replacement));

        entries[0] = ("player.txd", replacement);
        Verify(archive, entries);
        Assert.That(archive.Entries[0].Name, Is.EqualTo("player.txd"));
        Assert.That(archive.Entries[0].State, Is.EqualTo(EntryState.Replaced));
    }

    [Test]
    public void Build_AddsPastTheDirectorysSector_DirectoryGrowsAndEverythingMoves()
    {
        // 60 records end at 8 + 32·60 = 1928, inside one sector; 65 end at 2088 and need two.
        var entries = Entries(60, 3, maxLength: 3000);
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        var added = Enumerable.Range(0, 5).Select(i => ($"new{i}.dff", TestData.Random(200 + i, 100 + 1000 * i))).ToList();
        using var archive = Build(original, added.Select(a => Change(a.Item1, a.Item2)).ToArray());

        var read = Verify(archive, entries.Concat(added).ToList());
        Assert.That(read.Where(e => e.Sectors > 0).Min(e => e.Sector), Is.EqualTo(2));
        Assert.That(archive.Entries.Skip(60).Select(e => e.State), Is.All.EqualTo(EntryState.Added));
    }

    [Test]
    public void Build_Delete_DropsTheRecord()
    {
        var entries = Entries(4, 4);
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        using var archive = Build(original, new EntryChange(EntryKey.ByName("E2.COL"), null, "mod"));

        entries.RemoveAt(2);
        Verify(archive, entries);
        Assert.That(archive.Entries.Single(e => e.State == EntryState.Deleted).Name, Is.EqualTo("e2.col"));
    }

    [Test]
    public void Build_OneReplacementInTheMiddle_UnchangedRunsAreOneSliceEach()
    {
        var entries = Entries(30, 5, maxLength: 5000);
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        using var archive = Build(original, Change("e15.dff", TestData.Random(6, 7000)));

        entries[15] = ("e15.dff", TestData.Random(6, 7000));
        Verify(archive, entries);
        var fromOriginal = archive.File.Segments.ToArray().Count(s => s.Source is FileSource f && f.Path == archive.Original.Path);
        Assert.That(fromOriginal, Is.EqualTo(2), "entries 0-14 and 16-29 should each be one slice of the original");
    }

    [Test]
    public void Build_InjectedFileOver65535Sectors_IsRefusedNamingTheEntry()
    {
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(Entries(2, 7)));
        var huge = _dir["mod/huge.dff"];
        Directory.CreateDirectory(Path.GetDirectoryName(huge)!);
        using (var stream = File.Create(huge))
            stream.SetLength(65_536L * 2048); // sparse: nothing is written
        var change = new EntryChange(EntryKey.ByName("huge.dff"), EntryInput.FromFile(huge), "mod");
        Assert.That(() => Build(original, change),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("huge.dff").And.Message.Contains("65535 sectors"));
    }

    [TestCase("a_name_of_twenty_four_ch")]
    [TestCase("models/sub.dff")]
    [TestCase("caf\u00e9.txd")]
    public void Build_AddWithANameImgCannotHold_IsRefusedNamingIt(string name)
    {
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(Entries(2, 8)));
        Assert.That(() => Build(original, Change(name, [1, 2, 3])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(name).And.Message.Contains("gta3.img"));
    }

    [Test]
    public void Build_AddWithATwentyThreeCharacterName_Fits()
    {
        var entries = Entries(2, 9);
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(entries));
        var name = new string('x', 19) + ".dff";
        using var archive = Build(original, Change(name, [7]));
        Verify(archive, entries.Append((name, new byte[] { 7 })).ToList());
    }

    [Test]
    public void Build_DeleteOfAMissingEntryOrIndexKey_IsRefused()
    {
        var original = _dir.Write("gta3.img", ImgTestWriter.Write(Entries(2, 10)));
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByName("nope.dff"), null, "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("nope.dff").And.Message.Contains("no such entry"));
        Assert.That(() => Build(original, new EntryChange(EntryKey.ByIndex(0), EntryInput.FromBytes(new byte[1]), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("addressed by name"));
    }

    [Test]
    public void Detect_ImgAndOtherData_TellsThemApart()
    {
        var img = ImgTestWriter.Write(Entries(2, 11));
        Assert.That(ImgFormat.Instance.Detect(img, img.Length), Is.True);
        Assert.That(ArchiveFormats.Detect(_dir.Write("d.img", img)), Is.SameAs(ImgFormat.Instance));
        Assert.That(ImgFormat.Instance.Detect(TestData.Random(1, 100), 100), Is.False);
        Assert.That(ImgFormat.Instance.Detect("VER2\xff\xff\xff\x00"u8.ToArray(), 8), Is.False, "count larger than the file");
    }

    internal static List<(string Name, byte[] Data)> Entries(int count, int seed, int maxLength = 9000)
    {
        var random = new Random(seed);
        string[] extensions = [".dff", ".txd", ".col"];
        return Enumerable.Range(0, count)
            .Select(i => ($"e{i}{extensions[i % 3]}", TestData.Random(seed * 1000 + i, random.Next(1, maxLength)))).ToList();
    }

    private EntryChange Change(string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(_dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    private static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        ImgFormat.Instance.Build(ImgFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    /// <summary>Checks the built archive with the independent reader (structure, names, sector counts, bytes) and with ours.</summary>
    private IReadOnlyList<ImgIndependentReader.Entry> Verify(EmulatedArchive archive, IReadOnlyList<(string Name, byte[] Data)> expected)
    {
        var path = _dir.Write($"built-{Guid.NewGuid():N}.img", AfsTests.Materialise(archive));
        var independent = ImgIndependentReader.Read(path);
        Assert.That(independent.Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Name)));
        Assert.That(independent.Select(e => e.Sectors), Is.EqualTo(expected.Select(e => (long)(e.Data.Length + 2047) / 2048)));
        Assert.That(independent.Select(e => e.Sha256), Is.EqualTo(expected.Select(e => AfsIndependentReader.Sha256(ImgTestWriter.Padded(e.Data)))));

        var ours = ImgFormat.Instance.ReadIndex(path);
        var file = File.ReadAllBytes(path);
        Assert.That(ours.Entries.Select(e => e.Offset % 2048), Is.All.Zero, "every entry starts on a sector");
        Assert.That(ours.Entries.Select(e => file.AsSpan((int)e.Offset, (int)e.Size).ToArray()), Is.EqualTo(expected.Select(e => ImgTestWriter.Padded(e.Data))));
        Assert.That(archive.Entries.Where(e => e.State != EntryState.Deleted).Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Name)));
        return independent;
    }
}
