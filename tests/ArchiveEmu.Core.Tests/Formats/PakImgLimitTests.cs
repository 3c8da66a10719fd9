using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The PAK and IMG v2 builders at their field limits (docs/FORMATS.md): a PAK name of the variant's longest, an entry
/// of 2^31 − 1 bytes and one more; an IMG v2 entry of 65,535 sectors and one more (inputs from a virtual file of zeros,
/// never read), and the second size field of an unchanged record kept.
/// </summary>
public sealed class PakImgLimitTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("pak-img-limits");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static EntryInput Zeros(long length) => ZeroInputs.Of(length);

    private static EmulatedArchive Build(string format, string path, params EntryChange[] changes)
    {
        var f = ArchiveFormats.ByName(format)!;
        return f.Build(f.ReadIndex(path), new ArchivePatch(changes));
    }

    [TestCase("V1", 252)]
    [TestCase("V2", 32)]
    [TestCase("V3BE", 24)]
    public void Pak_ANameOfTheFieldLessItsNul_IsAdded_OneMoreIsRefusedSayingTheLimit(string variant, int field)
    {
        var layout = PakTestLayout.All.First(l => l.Variant == variant);
        var path = _dir.Write($"{variant}.pak", PakTestWriter.Write(layout, [("a.bin", [1, 2, 3])]));
        string fits = new('f', field - 1), over = new('o', field);
        using (var archive = Build("pak", path, new EntryChange(EntryKey.ByName(fits), EntryInput.FromBytes(new byte[] { 4 }), "mod")))
            Assert.That(archive.Entries.Select(e => e.Name), Is.EqualTo(new[] { "a.bin", fits }));
        Assert.That(() => Build("pak", path, new EntryChange(EntryKey.ByName(over), EntryInput.FromBytes(new byte[] { 4 }), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
                $"cannot add '{over}' (from mod): a {variant} PAK name is printable ASCII of at most {field - 1} bytes"));
    }

    [Test]
    public void Pak_AnEntryOf2GiBLess1_IsTaken_OneByteMoreIsRefused()
    {
        var path = _dir.Write("v2.pak", PakTestWriter.Write(PakTestLayout.All.First(l => l.Variant == "V2"), [("a.bin", [1, 2, 3])]));
        using (var archive = Build("pak", path, new EntryChange(EntryKey.ByName("a.bin"), Zeros(int.MaxValue), "mod")))
        {
            var head = new byte[40];
            archive.File.ReadExactly(0, head);
            Assert.That(BinaryPrimitives.ReadInt32LittleEndian(head.AsSpan(4 + 32)), Is.EqualTo(int.MaxValue), "the record's s32 size");
        }
        Assert.That(() => Build("pak", path, new EntryChange(EntryKey.ByName("a.bin"), Zeros(int.MaxValue + 1L), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("entry 'a.bin': zeros (emulated, 2147483648 bytes) is 2147483648 bytes; PAK sizes are s32"));
    }

    [Test]
    public void Img_AnEntryOf65535Sectors_IsTaken_OneSectorMoreIsRefused()
    {
        var path = _dir.Write("v2.img", ImgTestWriter.Write([("a.dff", TestData.Random(1, 100))]));
        using (var archive = Build("img", path, new EntryChange(EntryKey.ByName("a.dff"), Zeros(65535L * 2048), "mod")))
        {
            var head = new byte[16];
            archive.File.ReadExactly(0, head);
            Assert.That(BinaryPrimitives.ReadUInt16LittleEndian(head.AsSpan(8 + 4)), Is.EqualTo(65535));
        }
        Assert.That(() => Build("img", path, new EntryChange(EntryKey.ByName("a.dff"), Zeros(65535L * 2048 + 1), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("(65536 sectors); IMG v2 sizes stop at 65535 sectors"));
    }

    [Test]
    public void Img_AnUnchangedRecordsSecondSizeField_IsKept_AChangedOneIsZero()
    {
        var bytes = ImgTestWriter.Write([("a.dff", TestData.Random(1, 100)), ("b.txd", TestData.Random(2, 3000))]);
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(8 + 6), 7);      // a.dff
        BinaryPrimitives.WriteUInt16LittleEndian(bytes.AsSpan(8 + 32 + 6), 9); // b.txd
        var path = _dir.Write("streaming.img", bytes);
        using var archive = Build("img", path, new EntryChange(EntryKey.ByName("b.txd"), EntryInput.FromBytes(new byte[] { 1 }), "mod"));
        var built = AfsTests.Materialise(archive);
        Assert.That((BinaryPrimitives.ReadUInt16LittleEndian(built.AsSpan(8 + 6)), BinaryPrimitives.ReadUInt16LittleEndian(built.AsSpan(8 + 32 + 6))),
            Is.EqualTo(((ushort)7, (ushort)0)));
    }
}
