using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>Reading CPK originals written by the independent test writer.</summary>
public sealed class CpkReadTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cpk");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase(false, 0x800)]
    [TestCase(true, 0x20)]
    public void ReadIndex_NamedCpk_ListsPathsAndTheStoredBytesOfEveryEntry(bool masked, int alignment)
    {
        var entries = CpkTestFiles.Named();
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(alignment, Masked: masked, WithEtoc: true)));

        Assert.That(ArchiveFormats.Detect(path), Is.SameAs(CpkFormat.Instance));
        var index = (CpkIndex)CpkFormat.Instance.ReadIndex(path);

        Assert.That(index.Entries.Select(e => e.Name), Is.EqualTo(new[] { "battle/tex.dds", "battle/zz.bin", "field/map/m01.bin", "root.txt", "sound/bgm.awb" }));
        var bytes = File.ReadAllBytes(path);
        for (int i = 0; i < entries.Count; i++)
            Assert.That(bytes.AsSpan((int)index.Entries[i].Offset, (int)index.Entries[i].Size).ToArray(), Is.EqualTo(entries[i].Content), entries[i].FileName);
        Assert.That(index.Layout.Alignment, Is.EqualTo(alignment));
        Assert.That(index.Layout.Etoc, Is.Not.Null);
        Assert.That(index.Header.Table.Masked, Is.EqualTo(masked));
        Assert.That(index.Header.Table.Columns, Has.Count.EqualTo(44), "every header column kept");
        Assert.That(index.Entries.Select(index.WhyNotInPlace), Is.All.Null);
    }

    [Test]
    public void ReadIndex_ACompressedEntry_IsRecognisedAndKeepsItsExtractSize()
    {
        var entries = CpkTestFiles.Named(compressSome: true);
        var path = _dir.Write("data.cpk", CpkTestWriter.WriteNamed(entries));

        var index = (CpkIndex)CpkFormat.Instance.ReadIndex(path);

        Assert.That(index.Entries[1].Size, Is.LessThan(5000));
        Assert.That(index.ExtractSizes[1], Is.EqualTo(5000));
        Assert.That(index.StoredCodec(index.Entries[1]), Is.EqualTo(new StoredEncoding(Crilayla.Instance, 5000)));
        Assert.That(index.StoredCodec(index.Entries[0]), Is.Null);
        Assert.That(index.Entries.Select(index.WhyNotInPlace), Is.All.Null, "CRILAYLA decodes: an archive inside is decoded once");
    }

    [TestCase(false)]
    [TestCase(true)]
    public void ReadIndex_IdOnlyCpk_ListsEntriesInIdOrderWithNoNames(bool masked)
    {
        var entries = new List<CpkTestWriter.IdEntry>
        {
            new(7, TestData.Random(1, 70000)), new(2, TestData.Random(2, 10)), new(3, TestData.Random(3, 0x900)),
        };
        var path = _dir.Write("id.cpk", CpkTestWriter.WriteIdOnly(entries, new CpkTestWriter.Options(Masked: masked)));

        var index = (CpkIndex)ArchiveFormats.ReadIndex(path);

        Assert.That(index.IsIdOnly, Is.True);
        Assert.That(index.Ids, Is.EqualTo(new long[] { 2, 3, 7 }));
        Assert.That(index.Entries.Select(e => e.Name), Is.All.Null);
        Assert.That(index.Entries.Select(e => e.Size), Is.EqualTo(new long[] { 10, 0x900, 70000 }));
        var theirs = CpkIndependentReader.Read(path);
        Assert.That(index.Entries.Select(e => e.Offset), Is.EqualTo(theirs.Entries.Select(e => e.Offset)));
    }
}
