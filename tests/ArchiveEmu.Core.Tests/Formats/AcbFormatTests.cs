using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The ACB as an archive format: detected by its Header table, its entries the in-memory AWB's, placed in the ACB.</summary>
public sealed class AcbFormatTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("acb-format");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Detect_AnAcbPlainOrMasked_IsAcb_AndACpkOrAnotherUtfTableIsNot()
    {
        var acb = AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write(AcbTests.Entries(2))));
        var masked = (byte[])acb.Clone();
        UtfTestWriter.Mask(masked);
        var other = UtfTestWriter.Write("Cue", 1, [new UtfColumn("CueId", UtfType.U32, UtfStorage.PerRow, [7u])]);
        var cpk = CpkTestWriter.WriteNamed([new("d", "a.bin", TestData.Random(1, 100))]);

        Assert.That(ArchiveFormats.Detect(_dir.Write("bgm.acb", acb)), Is.SameAs(AcbFormat.Instance));
        Assert.That(ArchiveFormats.Detect(_dir.Write("masked.acb", masked)), Is.SameAs(AcbFormat.Instance));
        Assert.That(ArchiveFormats.Detect(_dir.Write("cue.utf", other)), Is.Null);
        Assert.That(ArchiveFormats.Detect(_dir.Write("data.cpk", cpk))!.Name, Is.EqualTo("cpk"));
        Assert.That(AcbFormat.Instance.Detect(acb, acb.Length - 1), Is.False, "a table longer than the file");
        var hostile = (byte[])acb.Clone();
        BinaryPrimitives.WriteUInt32BigEndian(hostile.AsSpan(0x0C), uint.MaxValue); // strings far past the head
        Assert.That(AcbFormat.Instance.Detect(hostile, hostile.Length), Is.False);
    }

    [Test]
    public void ReadIndex_MemoryAcb_EntriesAreTheInMemoryAwbsAtTheirPlaceInTheAcb()
    {
        var entries = AcbTests.Entries(3);
        var bytes = AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(entries)));
        var index = AcbFormat.Instance.ReadIndex(_dir.Write("se.acb", bytes));

        Assert.That(index.Entries, Has.Count.EqualTo(3));
        foreach (var entry in index.Entries)
            Assert.That(bytes.AsSpan((int)entry.Offset, (int)entry.Size).ToArray(), Is.EqualTo(entries[entry.Index]));
    }

    [Test]
    public void ReadIndex_DamagedInMemoryAwb_IsOneErrorNamingTheAcb()
    {
        var bytes = AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(AcbTests.Entries(3))));
        int awbAt = bytes.AsSpan().IndexOf("AFS2"u8);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(awbAt + 8), 1_000_000); // an entry count past the AWB's end
        var path = _dir.Write("se.acb", bytes);

        var error = Assert.Throws<ArchiveFormatException>(() => AcbFormat.Instance.ReadIndex(path))!;
        Assert.That(error.Message, Does.Contain(path).And.Contain("entry count"));
    }
}
