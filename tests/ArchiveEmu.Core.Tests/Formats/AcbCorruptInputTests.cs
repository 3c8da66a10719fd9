using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Damaged and hostile ACBs: one ArchiveFormatException naming the file and the offset of what is wrong.</summary>
public sealed class AcbCorruptInputTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("acb-corrupt");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase(8)]
    [TestCase(40)]
    public void Build_AStreamedAwbThatIsNoAwb_IsRefusedSayingSo(int length)
    {
        var acb = AcbFile.Read(_dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write([TestData.Random(1, 100)])))));
        using var notAwb = new ArchiveEmu.Core.VirtualFiles.VirtualFileBuilder().AppendBytes(TestData.Random(2, length)).Build();
        Assert.That(() => AcbBuilder.Build(acb, new AcbPatch(notAwb, "bgm")), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
            $"the streamed AWB given for this ACB ({length} bytes) does not start with an AFS2 header"));
    }

    [Test]
    public void Build_AMemoryAwbThatWouldPassTheTables4GiB_IsRefused()
    {
        var acb = AcbFile.Read(_dir.Write("se.acb", AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write([TestData.Random(1, 100)])))));
        using var huge = new ArchiveEmu.Core.VirtualFiles.VirtualFileBuilder().AppendZeros(uint.MaxValue).Build(); // never read
        Assert.That(() => AcbBuilder.Build(acb, new AcbPatch(MemoryAwb: huge)), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("does not fit @UTF's 32-bit size").And.Message.Contains("(at offset 0x4)"));
    }

    [Test]
    public void Build_AMemoryAwbForAnAcbThatHoldsNone_IsRefused()
    {
        var acb = AcbFile.Read(_dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write([TestData.Random(1, 100)])))));
        using var awb = new ArchiveEmu.Core.VirtualFiles.VirtualFileBuilder().AppendBytes(AwbTestWriter.Write([TestData.Random(3, 10)])).Build();
        Assert.That(() => AcbBuilder.Build(acb, new AcbPatch(MemoryAwb: awb)), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
            "the ACB holds no in-memory AWB (AwbFile) to replace"));
    }

    [Test]
    public void Read_NotAnAtUtfTable_IsRefusedAtOffsetZero() =>
        AssertRefused(TestData.Random(1, 200), 0, "no @UTF");

    [Test]
    public void Read_TooShortForATable_IsRefused() =>
        AssertRefused("@UTF"u8.ToArray(), 0, "too short");

    [Test]
    public void Read_TruncatedTable_IsRefusedAtTheSizeField()
    {
        var bytes = Streamed();
        AssertRefused(bytes[..(bytes.Length - 40)], 4, "runs past the end");
    }

    [Test]
    public void Read_TableNotNamedHeader_IsRefusedAtTheNameField() =>
        AssertRefused(UtfTestWriter.Write("Cue", 1, [Column("Name", UtfType.String, "x")]), 0x14, "not 'Header'");

    [Test]
    public void Read_HeaderWithTwoRows_IsRefusedAtTheRowCount() =>
        AssertRefused(UtfTestWriter.Write("Header", 2, [new UtfColumn("Name", UtfType.String, UtfStorage.PerRow, ["a", "b"])]), 0x1C, "2 rows");

    [Test]
    public void Read_HeaderCopyWithoutAfs2Magic_IsRefusedAtTheCopy()
    {
        var bytes = Streamed(headerAsTable: false);
        int copyAt = bytes.AsSpan().IndexOf("AFS2"u8);
        bytes[copyAt] = (byte)'X';
        AssertRefused(bytes, copyAt, "not an AFS2 header");
    }

    [Test]
    public void Read_HeaderCopyShorterThanItsOwnTable_IsRefusedAtTheCopy()
    {
        var bytes = Streamed(headerAsTable: false);
        int copyAt = bytes.AsSpan().IndexOf("AFS2"u8);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(copyAt + 8), 1000);
        AssertRefused(bytes, copyAt, "runs past its");
    }

    [Test]
    public void Read_RawHashThatIsNot16Bytes_IsRefused()
    {
        var copy = AcbTestWriter.HeaderCopy(AwbTestWriter.Write([TestData.Random(2, 10)]));
        var bytes = UtfTestWriter.Write("Header", 1,
            [Column("Name", UtfType.String, "bgm"), Column("StreamAwbHash", UtfType.Data, new byte[5]), Column("StreamAwbAfs2Header", UtfType.Data, copy)]);
        var ex = AssertRefused(bytes, null, "not a 16-byte MD5");
        Assert.That(ex.Offset, Is.GreaterThan(0x20));
    }

    [Test]
    public void Read_DataOffsetPastThePool_IsRefusedAtTheField()
    {
        var bytes = Streamed();
        var field = AcbFile.Read(_dir.Write("good.acb", bytes)).StreamAwbHeader!.Field;
        BinaryPrimitives.WriteUInt32BigEndian(bytes.AsSpan((int)field.FieldAt), 0x7FFF_0000);
        AssertRefused(bytes, field.FieldAt, "outside");
    }

    [Test]
    public void Build_MaskedAcb_IsRefusedNamingTheFile()
    {
        var copy = AcbTestWriter.HeaderCopy(AwbTestWriter.Write([TestData.Random(3, 10)]));
        var path = _dir.Write("masked.acb", UtfTestWriter.Write("Header", 1, [Column("StreamAwbAfs2Header", UtfType.Data, copy)], masked: true));
        var acb = AcbFile.Read(path);
        Assert.That(acb.Masked, Is.True);
        Assert.That(acb.StreamAwbHeader!.Values.Single(), Is.EqualTo(copy), "a masked ACB is read");

        var ex = Assert.Throws<ArchiveFormatException>(() => AcbBuilder.Build(acb, new AcbPatch()).Dispose());
        Assert.That(ex!.ArchivePath, Is.EqualTo(path));
        Assert.That(ex.Problem, Does.Contain("masked"));
    }

    [Test]
    public void Build_StreamedAwbForAnAcbWithoutAHeaderCopy_IsRefused()
    {
        var path = _dir.Write("se.acb", AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write([TestData.Random(4, 10)]))));
        var awbPath = _dir.Write("se.awb", AwbTestWriter.Write([TestData.Random(5, 10)]));
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(awbPath), new ArchivePatch([]));
        var ex = Assert.Throws<ArchiveFormatException>(() => AcbBuilder.Build(AcbFile.Read(path), new AcbPatch(awb.File, "se")).Dispose());
        Assert.That(ex!.ArchivePath, Is.EqualTo(path));
        Assert.That(ex.Problem, Does.Contain("StreamAwbAfs2Header"));
    }

    [Test]
    public void StreamAwbRow_SeveralAwbsAndNoneNamedSo_IsRefused()
    {
        var copy = AcbTestWriter.HeaderCopy(AwbTestWriter.Write([TestData.Random(6, 10)]));
        var headers = UtfTestWriter.Write("StreamAwbHeader", 2, [new UtfColumn("Header", UtfType.Data, UtfStorage.PerRow, [copy, copy])]);
        var hashes = UtfTestWriter.Write("StreamAwb", 2,
            [new UtfColumn("Name", UtfType.String, UtfStorage.PerRow, ["a", "b"]), new UtfColumn("Hash", UtfType.Data, UtfStorage.PerRow, [new byte[16], new byte[16]])]);
        var path = _dir.Write("two.acb", UtfTestWriter.Write("Header", 1,
            [Column("StreamAwbHash", UtfType.Data, hashes), Column("StreamAwbAfs2Header", UtfType.Data, headers)]));
        var acb = AcbFile.Read(path);

        Assert.That(acb.StreamAwbRow("B"), Is.EqualTo(1));
        var ex = Assert.Throws<ArchiveFormatException>(() => acb.StreamAwbRow("c"));
        Assert.That(ex!.Problem, Does.Contain("2 streamed AWBs and none is named 'c'"));
    }

    [Test]
    public void Read_RandomOneByteChangesOfAValidAcb_EachReadsOrIsOneArchiveFormatException()
    {
        var original = AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write([TestData.Random(7, 50), TestData.Random(8, 20)]), Cues: 1));
        var random = new Random(21);
        var path = _dir["fuzz.acb"];
        for (int i = 0; i < 400; i++)
        {
            var bytes = (byte[])original.Clone();
            bytes[random.Next(bytes.Length)] = (byte)random.Next(256);
            File.WriteAllBytes(path, bytes);
            try
            {
                AcbFile.Read(path);
            }
            catch (ArchiveFormatException ex)
            {
                Assert.That(ex.ArchivePath, Is.EqualTo(path));
            }
        }
    }

    private static byte[] Streamed(bool headerAsTable = true) =>
        AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write([TestData.Random(9, 300), TestData.Random(10, 30)]), HeaderAsTable: headerAsTable));

    private static UtfColumn Column(string name, UtfType type, object? value) => new(name, type, UtfStorage.PerRow, [value]);

    private ArchiveFormatException AssertRefused(byte[] bytes, long? offset, string problem)
    {
        var path = _dir.Write("bad.acb", bytes);
        var ex = Assert.Throws<ArchiveFormatException>(() => AcbFile.Read(path));
        Assert.That(ex!.ArchivePath, Is.EqualTo(path));
        Assert.That(ex.Problem, Does.Contain(problem));
        if (offset is { } at)
            Assert.That(ex.Offset, Is.EqualTo(at));
        return ex;
    }
}
