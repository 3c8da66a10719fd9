using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// IMG v1 pairs (x.img + x.dir) from ImgV1TestWriter; every emulated pair — the data file and the directory built from the
/// same original and patch — re-read by ImgV1IndependentReader, bytes asserted.
/// </summary>
public sealed class ImgV1Tests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("imgv1");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Build_EmptyPatch_BothFilesAreByteIdenticalToTheOriginals()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(6, 1));
        var (data, directory) = Build(img);
        Assert.That(data, Is.EqualTo(File.ReadAllBytes(img)));
        Assert.That(directory, Is.EqualTo(File.ReadAllBytes(_dir["gta3.dir"])));
    }

    [Test]
    public void Build_ReplaceAddAndDelete_ThePairReadsBackAsThePatchSays()
    {
        var entries = ImgTests.Entries(6, 2);
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", entries);
        var bigger = TestData.Random(100, 5 * 2048 + 3);
        var smaller = TestData.Random(101, 10);
        var added = TestData.Random(102, 4097);
        var (data, directory) = Build(img, Change("e1.txd", bigger), Change("e3.dff", smaller), Delete("E4.TXD"), Change("infernus.txd", added));

        entries[1] = ("e1.txd", bigger);
        entries[3] = ("e3.dff", smaller);
        entries.RemoveAt(4);
        entries.Add(("infernus.txd", added));
        var read = Verify(data, directory, entries);
        Assert.That(read.Select(e => e.Sectors), Is.EqualTo(entries.Select(e => (long)(e.Data.Length + 2047) / 2048)));
        Assert.That(read.Select(e => e.Sector), Is.EqualTo(read.Select((_, i) => read.Take(i).Sum(e => e.Sectors))), "laid out in directory order from sector 0");
    }

    [Test]
    public void Build_ReplaceAddAndDelete_ListsEachEntrysStateOriginAndWholeSectors_DeletedLast()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(3, 2));
        var original = Read(img);
        using var data = ImgV1Format.Instance.Build(original, new ArchivePatch(
            [Change("e1.txd", TestData.Random(100, 2049)), Delete("e0.dff"), Change("new.txd", TestData.Random(101, 10))]));
        Assert.That(data.Entries.Select(e => $"{e.Index} {e.Name} {e.Size} {e.State} {e.Origin}"), Is.EqualTo(new[]
        {
            "0 e1.txd 4096 Replaced mod", $"1 {original.Entries[2].Name} {original.Entries[2].Size} Original original", "2 new.txd 2048 Added mod", "0 e0.dff 0 Deleted mod",
        }));
    }

    [Test]
    public void Build_ReplaceInOtherCase_ReplacesTheEntryAndKeepsTheOriginalSpelling()
    {
        var entries = new List<(string, byte[])> { ("Infernus.txd", TestData.Random(1, 3000)), ("other.dff", TestData.Random(2, 100)) };
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", entries);
        var replacement = TestData.Random(3, 4100);
        using var archive = ImgV1Format.Instance.Build(Read(img), new ArchivePatch([Change("INFERNUS.TXD", replacement)]));
        using var dirArchive = ImgV1Format.BuildDirectory(Read(img), new ArchivePatch([Change("INFERNUS.TXD", replacement)]));

        entries[0] = ("Infernus.txd", replacement);
        Verify(AfsTests.Materialise(archive), AfsTests.Materialise(dirArchive), entries);
        Assert.That(archive.Entries[0].Name, Is.EqualTo("Infernus.txd"));
        Assert.That(archive.Entries[0].State, Is.EqualTo(EntryState.Replaced));
        Assert.That(dirArchive.Original.Path, Is.EqualTo(_dir["gta3.dir"]), "the directory's original is the .dir");
    }

    [Test]
    public void Build_OneReplacementInTheMiddle_UnchangedRunsAreOneSliceEach()
    {
        var entries = ImgTests.Entries(30, 5, maxLength: 5000);
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", entries);
        using var archive = ImgV1Format.Instance.Build(Read(img), new ArchivePatch([Change("e15.dff", TestData.Random(6, 7000))]));
        var fromOriginal = archive.File.Segments.ToArray().Count(s => s.Source is FileSource f && f.Path == img);
        Assert.That(fromOriginal, Is.EqualTo(2), "entries 0-14 and 16-29 should each be one slice of the original");
    }

    [Test]
    public void Detect_APairIsImgV1_ButVer2WinsAndAFileWithoutItsDirIsNot()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(3, 7));
        Assert.That(ArchiveFormats.Detect(img), Is.SameAs(ImgV1Format.Instance));
        Assert.That(ImgV1Format.Instance.Detect(File.ReadAllBytes(img), new FileInfo(img).Length), Is.False, "never by its bytes");

        var v2 = _dir.Write("v2/gta3.img", ImgTestWriter.Write(ImgTests.Entries(2, 8)));
        _dir.Write("v2/gta3.dir", File.ReadAllBytes(_dir["gta3.dir"]).AsSpan(0, 32).ToArray());
        Assert.That(ArchiveFormats.Detect(v2), Is.SameAs(ImgFormat.Instance), "VER2 wins over a .dir beside it");

        var alone = _dir.Write("alone/gta3.img", File.ReadAllBytes(img));
        Assert.That(ArchiveFormats.Detect(alone), Is.Not.SameAs(ImgV1Format.Instance));
    }

    [TestCase(33, "not 1 to")]
    [TestCase(0, "not 1 to")]
    public void Detect_ADirThatIsNotWholeRecords_IsNotAPair_AndTheUnknownFormatErrorSaysWhy(int dirLength, string why)
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(3, 9));
        File.WriteAllBytes(_dir["gta3.dir"], new byte[dirLength]);
        Assert.That(ImgV1Format.IsPair(img), Is.False);
        var error = Assert.Throws<ArchiveFormatException>(() => ArchiveFormats.ReadIndex(img))!;
        Assert.That(error.Message, Does.Contain(_dir["gta3.dir"]).And.Contain(why));
    }

    [Test]
    public void Detect_ADirWhoseRecordLiesPastTheImg_IsNotAPair()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(3, 10));
        using (var stream = new FileStream(img, FileMode.Open))
            stream.SetLength(stream.Length - 2048);
        Assert.That(ImgV1Format.IsPair(img), Is.False);
        Assert.That(() => ImgV1Format.Instance.ReadIndex(img),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(_dir["gta3.dir"]).And.Message.Contains("is outside the"));
    }

    [TestCase("gta3.dir")]
    [TestCase("GTA3.DIR")]
    public void DirectoryOf_FindsTheDirFromTheListingIgnoringCase_AsTheGameSpellsIt(string dirName)
    {
        var (img, dir) = ImgV1TestWriter.Write(ImgTests.Entries(2, 11));
        var imgPath = _dir.Write("models/gta3.img", img);
        _dir.Write("models/" + dirName, dir);
        Assert.That(ImgV1Format.DirectoryOf(imgPath), Is.EqualTo(_dir["models/" + dirName]));
        Assert.That(((ImgV1Index)ImgV1Format.Instance.ReadIndex(imgPath)).Directory.Path, Is.EqualTo(_dir["models/" + dirName]));
    }

    [Test]
    public void ReadIndex_ADamagedDirectory_IsOneErrorNamingTheDirAndTheRecord()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(3, 12));
        var dir = File.ReadAllBytes(_dir["gta3.dir"]);
        dir[32 + 8] = 0; // record 1: an empty name
        File.WriteAllBytes(_dir["gta3.dir"], dir);
        var error = Assert.Throws<ArchiveFormatException>(() => ImgV1Format.Instance.ReadIndex(img))!;
        Assert.That((error.ArchivePath, error.Offset), Is.EqualTo((_dir["gta3.dir"], 40L)));
        Assert.That(error.Problem, Does.Contain("entry 1"));

        File.WriteAllBytes(_dir["gta3.dir"], [.. File.ReadAllBytes(_dir["gta3.dir"]).AsSpan(0, 32), .. File.ReadAllBytes(_dir["gta3.dir"]).AsSpan(0, 32)]);
        Assert.That(() => ImgV1Format.Instance.ReadIndex(img), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("overlaps"));
        File.Delete(_dir["gta3.dir"]);
        Assert.That(() => ImgV1Format.Instance.ReadIndex(img),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(img).And.Message.Contains("no gta3.dir beside it"));
    }

    [Test]
    public void Build_AddWithANameImgCannotHold_IsRefusedNamingIt()
    {
        var img = ImgV1TestWriter.WriteFiles(_dir.Path, "gta3", ImgTests.Entries(2, 13));
        Assert.That(() => Build(img, Change("a_name_of_twenty_four_ch", [1])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("a_name_of_twenty_four_ch").And.Message.Contains("gta3.img"));
    }

    private EntryChange Change(string name, byte[] bytes) =>
        new(EntryKey.ByName(name), EntryInput.FromFile(_dir.Write($"mod/{Guid.NewGuid():N}.bin", bytes)), "mod");

    private static EntryChange Delete(string name) => new(EntryKey.ByName(name), null, "mod");

    private static ArchiveIndex Read(string img) => ImgV1Format.Instance.ReadIndex(img);

    /// <summary>The emulated data file and directory, both built from one read of the original and the same patch.</summary>
    private static (byte[] Data, byte[] Directory) Build(string img, params EntryChange[] changes)
    {
        var original = Read(img);
        using var data = ImgV1Format.Instance.Build(original, new ArchivePatch(changes));
        using var directory = ImgV1Format.BuildDirectory(original, new ArchivePatch(changes));
        Assert.That(directory.Entries, Is.EqualTo(data.Entries), "both files list the same entries");
        return (AfsTests.Materialise(data), AfsTests.Materialise(directory));
    }

    /// <summary>Checks the pair with the independent reader (names, whole sectors' bytes) and with ours.</summary>
    private IReadOnlyList<ImgV1Entry> Verify(byte[] data, byte[] directory, IReadOnlyList<(string Name, byte[] Data)> expected)
    {
        var read = ImgV1IndependentReader.Read(data, directory);
        Assert.That(read.Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Name)));
        Assert.That(read.Select(e => e.Bytes), Is.EqualTo(expected.Select(e => ImgTestWriter.Padded(e.Data))));

        var folder = _dir[$"check-{Guid.NewGuid():N}"];
        Directory.CreateDirectory(folder);
        File.WriteAllBytes(Path.Combine(folder, "x.dir"), directory);
        var ours = ImgV1Format.Instance.ReadIndex(_dir.Write($"{Path.GetFileName(folder)}/x.img", data));
        Assert.That(ours.Entries.Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Name)));
        return read;
    }
}
