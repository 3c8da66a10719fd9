using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Txd;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Damaged dictionaries and DDS files a PC native cannot hold: each is one ArchiveFormatException naming the file and what is wrong.</summary>
public sealed class TxdCorruptInputTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("txd-corrupt");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[] Dictionary() => TxdTestWriter.Write(
    [
        TxdTests.Texture(9, "body", TextureFormat.Dxt1, 16, 3, 1),
        TxdTests.Texture(9, "glass", TextureFormat.Dxt5, 8, 1, 2),
    ]);

    private static IEnumerable<TestCaseData> Damages()
    {
        // Offsets: dictionary header 0, its struct 12 (count at 24), first native 28, its struct 40, its platform 52, its name 60.
        yield return Case("truncated", b => b[..^5], "past the end");
        yield return Case("count one more", b => Put16(b, 24, 3), "dictionary ends");
        yield return Case("count one fewer", b => Put16(b, 24, 1), "extension chunk");
        yield return Case("native type", b => Put32(b, 28, 0x14), "texture native (0x15)");
        yield return Case("native size huge", b => Put32(b, 32, 0x7FFFFFF0), "run past the dictionary");
        yield return Case("struct larger than native", b => Put32(b, 44, 0x10000), "no struct chunk");
        yield return Case("PS2 platform", b => Put32(b, 52, 0x00325350), "only the PC");
        yield return Case("struct shorter than a header", b => Put32(b, 44, 40), "shorter than a Direct3D texture header");
        yield return Case("name with a slash", b => { b[62] = (byte)'/'; return b; }, "path separator");
        yield return Case("dictionary struct too big", b => Put32(b, 16, 0x7FFFFFF0), "struct of at least");

        static TestCaseData Case(string name, Func<byte[], byte[]> damage, string problem) => new TestCaseData(damage, problem).SetName($"ReadIndex_{name.Replace(' ', '_')}_IsRefusedNamingTheFile");
        static byte[] Put16(byte[] b, int at, ushort v) { BinaryPrimitives.WriteUInt16LittleEndian(b.AsSpan(at), v); return b; }
        static byte[] Put32(byte[] b, int at, uint v) { BinaryPrimitives.WriteUInt32LittleEndian(b.AsSpan(at), v); return b; }
    }

    [TestCaseSource(nameof(Damages))]
    public void ReadIndex_DamagedDictionary_IsRefusedNamingTheFile(Func<byte[], byte[]> damage, string problem)
    {
        var path = _dir.Write("bad.txd", damage(Dictionary()));
        Assert.That(() => TxdFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(path).And.Message.Contains(problem));
    }

    [Test]
    public void Detect_AcceptsDictionaries_AndNotOtherFormatsOrNoise()
    {
        var txd = Dictionary();
        Assert.That(TxdFormat.Instance.Detect(txd, txd.Length), Is.True);
        Assert.That(TxdFormat.Instance.Detect(txd, txd.Length - 1), Is.False, "the dictionary's size must fit the file");
        Assert.That(TxdFormat.Instance.Detect(txd, txd.Length + 2047), Is.True, "an IMG entry's sector padding after it");
        Assert.That(TxdFormat.Instance.Detect(txd, txd.Length + 2048), Is.False, "a dictionary at the start of a bigger file (a gta3.img)");
        Assert.That(TxdFormat.Instance.Detect(ImgTestWriter.Write([("a.txd", txd)]), 4096), Is.False);
        Assert.That(TxdFormat.Instance.Detect(TestData.Random(5, 4096), 4096), Is.False);
        Assert.That(ArchiveFormats.Detect(_dir.Write("x.txd", txd)), Is.SameAs(TxdFormat.Instance));
    }

    private static IEnumerable<TestCaseData> BadDds()
    {
        // DDS offsets: height 12, width 16, mip count 28, pixel format flags 80, FourCC 84, caps2 112.
        yield return Case("not a DDS", b => { b[0] = (byte)'X'; return b; }, "not a DDS file");
        yield return Case("width not a power of two", b => Put32(b, 16, 48), "not a power of two");
        yield return Case("unsupported FourCC", b => { "ATI2"u8.CopyTo(b.AsSpan(84)); return b; }, "'ATI2'");
        yield return Case("DX10 header", b => { "DX10"u8.CopyTo(b.AsSpan(84)); return b; }, "'DX10'");
        yield return Case("too many mips", b => Put32(b, 28, 9), "mip chain inconsistent");
        yield return Case("levels past the end", b => b[..^1], "the file has");
        yield return Case("cube map", b => Put32(b, 112, 0xFE00), "cube map");

        static TestCaseData Case(string name, Func<byte[], byte[]> damage, string problem) => new TestCaseData(damage, problem).SetName($"Build_Dds_{name.Replace(' ', '_')}_IsOneErrorNamingTheDdsFile");
        static byte[] Put32(byte[] b, int at, uint v) { BinaryPrimitives.WriteUInt32LittleEndian(b.AsSpan(at), v); return b; }
    }

    [TestCaseSource(nameof(BadDds))]
    public void Build_DdsThePlatformCannotHold_IsOneErrorNamingTheDdsFile(Func<byte[], byte[]> damage, string problem)
    {
        var original = _dir.Write("car.txd", Dictionary());
        var dds = _dir.Write("mod/body.dds", damage(DdsTestWriter.Write(TextureFormat.Dxt1, 32, 32, mipCount: 6, seed: 3)));
        Assert.That(() => TxdTests.Build(original, TxdTests.Change("body.dds", dds)),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(dds).And.Message.Contains(problem));
    }

    [Test]
    public void Build_EntryNameWithoutDds_IsRefusedNamingTheArchive()
    {
        var original = _dir.Write("car.txd", Dictionary());
        var loose = _dir.Write("mod/body.png", [1, 2, 3]);
        Assert.That(() => TxdTests.Build(original, TxdTests.Change("body.png", loose)),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(original).And.Message.Contains("<texture name>.dds"));
    }

    [Test]
    public void Build_AddedNameTooLong_IsRefused()
    {
        var original = _dir.Write("car.txd", Dictionary());
        var name = new string('n', 32) + ".dds";
        var dds = _dir.Write("mod/" + name, DdsTestWriter.Write(TextureFormat.Dxt1, 4, 4));
        Assert.That(() => TxdTests.Build(original, TxdTests.Change(name, dds)),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("1 to 31 printable ASCII"));
    }
}
