using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Txd;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The TXD builder at the edges of the format: texture names of 31 and 32 bytes, 65,535 and 65,536 textures (the u16
/// count), a dictionary past 4 GiB (inputs from a virtual file of zeros), a replaced texture's own version stamps and
/// extension, an empty dictionary of an unknown device. Chunks are walked here as the gtamods wiki lays them out:
/// type, size, version stamp, then the body.
/// </summary>
public sealed class TxdLimitTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("txd-limits");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static readonly byte[] SmallDds = DdsTestWriter.Write(TextureFormat.Dxt1, 4, 4, seed: 3);

    private string OneTexture() =>
        _dir.Write($"one-{Guid.NewGuid():N}.txd", TxdTestWriter.Write([TxdTests.Texture(9, "radar", TextureFormat.Dxt1, 8, 1, 1)]));

    [Test]
    public void Build_AddedNamesOf31And32Characters_TheFirstFitsTheSecondIsRefused()
    {
        string fits = new('a', 31), over = new('b', 32);
        using (var archive = Build(OneTexture(), Add(fits + ".dds")))
            Assert.That(TxdIndependentReader.Read(AfsTests.Materialise(archive)).Textures[^1].Name, Is.EqualTo(fits));
        Assert.That(() => Build(OneTexture(), Add(over + ".dds")), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
            $"cannot add texture '{over}' (from mod): texture names are 1 to 31 printable ASCII characters"));
    }

    [Test]
    public void Build_AModFileNamedOnlyDotDds_IsRefusedAsNoTextureName()
    {
        Assert.That(() => Build(OneTexture(), Add(".dds")), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("'.dds'").And.Message.Contains("TXD").And.Message.Contains("'<texture name>.dds'"));
    }

    [Test]
    public void Build_65535Textures_FitTheCount_65536AreRefused()
    {
        var original = _dir.Write("empty.txd", TxdTestWriter.Write([], deviceId: 2));
        using (var archive = Build(original, Adds(ushort.MaxValue)))
        {
            var bytes = AfsTests.Materialise(archive);
            Assert.That(BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(24)), Is.EqualTo(ushort.MaxValue), "the dictionary struct's count");
            var read = TxdIndependentReader.Read(bytes);
            Assert.That((read.Textures.Count, read.Textures[^1].Name), Is.EqualTo((65535, "t65534")));
        }
        Assert.That(() => Build(original, Adds(ushort.MaxValue + 1)), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("65536 textures; a dictionary's u16 count stops at 65535"));
    }

    [Test]
    public void Build_ADictionaryPast4GiB_IsRefusedNamingItsSize()
    {
        // Two 32768 x 16384 A8R8G8B8 textures: 2 GiB of pixels each, so each native fits its u32 and the dictionary does not.
        var header = DdsTestWriter.Write(TextureFormat.A8R8G8B8, 32768, 16384, Array.Empty<byte[]>());
        EntryInput Huge() => ZeroInputs.Of(2L << 30, header);
        Assert.That(() => Build(OneTexture(), new(EntryKey.ByName("radar.dds"), Huge(), "mod"), new(EntryKey.ByName("sky.dds"), Huge(), "mod")),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("the emulated dictionary would hold 4294967")
                .And.Message.Contains("bytes; a RenderWare chunk's u32 size stops at 4294967295"));
    }

    [Test]
    public void Build_AReplacedTexture_KeepsItsOwnVersionStampsAndExtension_AndEachEntryIsItsNativesSize()
    {
        var bytes = TxdTestWriter.Write([TxdTests.Texture(9, "first", TextureFormat.Dxt1, 8, 1, 1), TxdTests.Texture(9, "second", TextureFormat.Dxt1, 8, 1, 2)]);
        var second = Natives(bytes)[1];
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(second.At + 8), 0x1005FFFF);       // the native's stamp
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(second.At + 12 + 8), 0x1006FFFF);  // its struct's stamp
        var extension = new byte[] { 0x53, 0xF2, 0xFF, 0x00, 4, 0, 0, 0, 0xFF, 0xFF, 0x03, 0x18, 1, 2, 3, 4 }; // a chunk inside it
        bytes = WithExtension(bytes, 1, extension);
        var original = _dir.Write("stamps.txd", bytes);

        using var archive = Build(original, new EntryChange(EntryKey.ByName("second.dds"), EntryInput.FromBytes(SmallDds), "mod"));
        var built = AfsTests.Materialise(archive);
        var natives = Natives(built);
        Assert.That((natives[1].Version, natives[1].StructVersion), Is.EqualTo((0x1005FFFFu, 0x1006FFFFu)));
        int extensionAt = natives[1].At + 12 + 12 + (int)U32(built, natives[1].At + 12 + 4);
        Assert.That(built[extensionAt..(extensionAt + 12 + extension.Length)], Is.EqualTo(
            new byte[] { 3, 0, 0, 0, (byte)extension.Length, 0, 0, 0, 0xFF, 0xFF, 0x03, 0x18 }.Concat(extension)),
            "the replaced texture's extension chunk, as it was (the reader here refuses mixed stamps, so it is read by hand)");
        Assert.That(natives[1].At + 12 + natives[1].Size, Is.EqualTo(extensionAt + 12 + extension.Length), "the native ends with it");
        Assert.That(archive.Entries.Select(e => e.Size), Is.EqualTo(natives.Select(n => 12L + n.Size)), "each entry is its whole native chunk");
    }

    [Test]
    public void Build_AddingToAnEmptyDictionaryOfAnUnknownDevice_IsRefused()
    {
        var original = _dir.Write("empty.txd", TxdTestWriter.Write([], deviceId: 0));
        Assert.That(() => Build(original, Add("sky.dds")), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(
            "cannot add 'sky.dds' (from mod) to an empty dictionary of device id 0: which platform its textures are for is unknown (1 = Direct3D 8, 2 = Direct3D 9)")
            .And.Message.Contains("(at offset 0x1A)"), "the device id: past the dictionary's and its struct's chunk headers and the count");
    }

    private sealed record Native(int At, uint Size, uint Version, uint StructVersion);

    /// <summary>The texture natives of a dictionary: after its 12-byte header and its struct chunk, one chunk each.</summary>
    private static List<Native> Natives(byte[] txd)
    {
        var list = new List<Native>();
        int at = 12 + 12 + (int)U32(txd, 12 + 4);
        while (U32(txd, at) == 0x15)
        {
            list.Add(new(at, U32(txd, at + 4), U32(txd, at + 8), U32(txd, at + 12 + 8)));
            at += 12 + (int)U32(txd, at + 4);
        }
        return list;
    }

    /// <summary>Puts <paramref name="body"/> in texture <paramref name="k"/>'s (empty) extension chunk, growing the chunks around it.</summary>
    private static byte[] WithExtension(byte[] txd, int k, byte[] body)
    {
        var native = Natives(txd)[k];
        int extension = native.At + 12 + 12 + (int)U32(txd, native.At + 12 + 4);
        var grown = txd[..(extension + 12)].Concat(body).Concat(txd[(extension + 12)..]).ToArray();
        foreach (int size in new[] { 4, native.At + 4, extension + 4 })
            BinaryPrimitives.WriteUInt32LittleEndian(grown.AsSpan(size), U32(grown, size) + (uint)body.Length);
        return grown;
    }

    private static uint U32(byte[] b, int at) => BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(at));

    private static EntryChange Add(string name) => new(EntryKey.ByName(name), EntryInput.FromBytes(SmallDds), "mod");

    private static EntryChange[] Adds(int count) => Enumerable.Range(0, count).Select(i => Add($"t{i:D5}.dds")).ToArray();

    private static EmulatedArchive Build(string original, params EntryChange[] changes) => TxdTests.Build(original, changes);
}
