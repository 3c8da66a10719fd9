using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Txd;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// RenderWare TXD originals from TxdTestWriter, replacements from DdsTestWriter; every emulated dictionary re-read by
/// TxdIndependentReader and compared texture by texture: each level's bytes, name, mask, flags.
/// </summary>
public sealed class TxdTests
{
    private const uint ViceCityStamp = 0x0C02FFFF;
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("txd");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    internal static TxdTestWriter.Texture Texture(int platform, string name, TextureFormat format, int size, int mips, int seed, string mask = "") =>
        TxdTestWriter.Texture.Create(platform, name, mask, format, size, size, mips, seed) with { FilterMode = 6, UAddressing = 3, VAddressing = 2 };

    private static List<TxdTestWriter.Texture> Car(int platform) =>
    [
        Texture(platform, "infernus_body", TextureFormat.Dxt1, 64, 7, 1, mask: "infernus_bodya"),
        Texture(platform, "infernus_lights", TextureFormat.Dxt3, 32, 1, 2),
        Texture(platform, "Infernus_Interior", TextureFormat.A8R8G8B8, 16, 5, 3),
        Texture(platform, "plate", TextureFormat.Dxt5, 8, 4, 4),
    ];

    [Test]
    public void Build_EmptyPatch_IsByteIdenticalToTheOriginal_AndListsTexturesAsDds()
    {
        var original = _dir.Write("infernus.txd", TxdTestWriter.Write(Car(9)));
        using var archive = Build(original);
        Assert.That(AfsTests.Materialise(archive), Is.EqualTo(File.ReadAllBytes(original)));
        Assert.That(archive.Entries.Select(e => e.Name), Is.EqualTo(new[] { "infernus_body.dds", "infernus_lights.dds", "Infernus_Interior.dds", "plate.dds" }));
        Assert.That(archive.Entries.Select(e => e.Detail), Is.EqualTo(new[] { "DXT1 64x64, 7 mips", "DXT3 32x32, 1 mip", "A8R8G8B8 16x16, 5 mips", "DXT5 8x8, 4 mips" }));
    }

    [TestCase(9, TextureFormat.Dxt1)]
    [TestCase(9, TextureFormat.Dxt3)]
    [TestCase(9, TextureFormat.Dxt5)]
    [TestCase(9, TextureFormat.A8R8G8B8)]
    [TestCase(8, TextureFormat.Dxt1)]
    [TestCase(8, TextureFormat.Dxt3)]
    [TestCase(8, TextureFormat.Dxt5)]
    [TestCase(8, TextureFormat.A8R8G8B8)]
    public void Build_ReplaceFromDds_NativeRebuiltAroundTheDdsLevels_NameMaskAndFlagsKept(int platform, TextureFormat format)
    {
        var textures = Car(platform);
        var original = _dir.Write("infernus.txd", TxdTestWriter.Write(textures, deviceId: (ushort)(platform == 8 ? 1 : 2)));
        var dds = _dir.Write("mod/infernus_body.dds", DdsTestWriter.Write(format, 128, 64, mipCount: 8, seed: 50));
        using var archive = Build(original, Change("infernus_body.dds", dds));

        textures[0] = textures[0] with { Format = format, Width = 128, Height = 64, Levels = DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels };
        var read = Verify(archive, textures);
        Assert.That(read.Textures[0].RasterFormat, Is.EqualTo(TxdTestWriter.RasterFormat(format, 8)));
        Assert.That(read.Textures[0].AlphaOrD3dFormat, Is.EqualTo(platform == 9 ? TxdTestWriter.D3dFormat(format) : format == TextureFormat.Dxt1 ? 0u : 1u));
        Assert.That(archive.Entries[0].State, Is.EqualTo(EntryState.Replaced));
        Assert.That(archive.Entries[0].Detail, Is.EqualTo($"{format.ToString().ToUpperInvariant()} 128x64, 8 mips"));
        // Nothing copied: every raster byte of the replacement is read from the DDS file.
        Assert.That(archive.BytesFromLooseFiles, Is.EqualTo(new FileInfo(dds).Length - DdsTestWriter.HeaderSize));
    }

    [Test]
    public void Build_DdsWithAMipCountButNoMipMapCountFlag_TakesEveryLevel()
    {
        // Some DDS writers leave DDSD_MIPMAPCOUNT (0x20000 in dwFlags at 8) out; Microsoft's guide says not to rely on it.
        var textures = Car(9);
        var original = _dir.Write("infernus.txd", TxdTestWriter.Write(textures));
        var bytes = DdsTestWriter.Write(TextureFormat.Dxt1, 32, 32, mipCount: 6, seed: 51);
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(8), System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(8)) & ~0x20000u);
        var dds = _dir.Write("mod/infernus_body.dds", bytes);
        using var archive = Build(original, Change("infernus_body.dds", dds));

        textures[0] = textures[0] with { Format = TextureFormat.Dxt1, Width = 32, Height = 32, Levels = DdsIndependentReader.Read(bytes).Levels };
        Assert.That(textures[0].Levels, Has.Count.EqualTo(6), "the premise: the tests' reader takes the count without the flag");
        Verify(archive, textures);
    }

    [Test]
    public void Build_ReplaceInOtherCase_KeepsTheDictionarysSpellingAndVersionStamps()
    {
        var textures = Car(8);
        var original = _dir.Write("infernus.txd", TxdTestWriter.Write(textures, deviceId: 1, libraryId: ViceCityStamp));
        var dds = _dir.Write("mod/INFERNUS_INTERIOR.DDS", DdsTestWriter.Write(TextureFormat.Dxt1, 32, 32, mipCount: 6, seed: 60));
        using var archive = Build(original, Change("INFERNUS_INTERIOR.DDS", dds));

        textures[2] = textures[2] with { Format = TextureFormat.Dxt1, Width = 32, Height = 32, Levels = DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels };
        var read = Verify(archive, textures);
        Assert.That(read.LibraryId, Is.EqualTo(ViceCityStamp));
        Assert.That(read.DeviceId, Is.EqualTo(1));
        Assert.That(archive.Entries[2].Name, Is.EqualTo("Infernus_Interior.dds"));
    }

    [Test]
    public void Build_AddAndDelete_CountFollows_AddedTextureNamedFromTheFileWithDefaults()
    {
        var textures = Car(9);
        var original = _dir.Write("infernus.txd", TxdTestWriter.Write(textures));
        var dds = _dir.Write("mod/infernus_decal.dds", DdsTestWriter.Write(TextureFormat.Dxt5, 16, 32, mipCount: 6, seed: 70));
        using var archive = Build(original, Change("infernus_decal.dds", dds), new EntryChange(EntryKey.ByName("PLATE.dds"), null, "mod"));

        var added = TxdTestWriter.Texture.Create(9, "infernus_decal", "", TextureFormat.Dxt5, 16, 32)
            with { Levels = DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels, FilterMode = 6, UAddressing = 1, VAddressing = 1 };
        Verify(archive, [textures[0], textures[1], textures[2], added]);
        Assert.That(archive.Entries.Select(e => (e.Name, e.State)), Is.EqualTo(new[]
        {
            ("infernus_body.dds", EntryState.Original), ("infernus_lights.dds", EntryState.Original), ("Infernus_Interior.dds", EntryState.Original),
            ("infernus_decal.dds", EntryState.Added), ("plate.dds", EntryState.Deleted),
        }));
    }

    [Test]
    public void Build_AddToAnEmptyDictionary_PlatformFromTheDeviceId()
    {
        var original = _dir.Write("empty.txd", TxdTestWriter.Write([], deviceId: 1, libraryId: ViceCityStamp));
        var dds = _dir.Write("mod/sky.dds", DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, seed: 80));
        using var archive = Build(original, Change("sky.dds", dds));

        var read = Verify(archive, [TxdTestWriter.Texture.Create(8, "sky", "", TextureFormat.Dxt1, 8, 8) with { Levels = DdsIndependentReader.Read(File.ReadAllBytes(dds)).Levels }]);
        Assert.That(read.LibraryId, Is.EqualTo(ViceCityStamp));
    }

    [Test]
    public void Build_X8R8G8B8Dds_IsStoredAs888WithD3dFormat22()
    {
        var original = _dir.Write("hud.txd", TxdTestWriter.Write([Texture(9, "radar", TextureFormat.Dxt1, 16, 1, 1)]));
        var bytes = DdsTestWriter.Write(TextureFormat.A8R8G8B8, 4, 4, mipCount: 3, seed: 90);
        var levels = DdsIndependentReader.Read(bytes).Levels; // the independent reader knows A8R8G8B8 only; the pixel bytes are the same
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(80), 0x40); // DDPF_RGB without DDPF_ALPHAPIXELS
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(104), 0); // no alpha mask: X8R8G8B8
        var dds = _dir.Write("mod/radar.dds", bytes);
        using var archive = Build(original, Change("radar.dds", dds));

        var built = AfsTests.Materialise(archive);
        int header = 2 * RwChunk.HeaderSize + 4 + 2 * RwChunk.HeaderSize; // the dictionary, its 4-byte struct, then the native and its struct
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(built.AsSpan(header + 72)), Is.EqualTo(0x8600u));
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(built.AsSpan(header + 76)), Is.EqualTo(22u));
        Assert.That(built[header + 84], Is.EqualTo(32));
        Assert.That(built[header + 87], Is.EqualTo(0), "no alpha, not compressed");
        Assert.That(archive.Entries[0].Detail, Is.EqualTo("X8R8G8B8 4x4, 3 mips"));
        int at = header + 88;
        foreach (var level in levels)
        {
            Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(built.AsSpan(at)), Is.EqualTo((uint)level.Length));
            Assert.That(built.AsSpan(at + 4, level.Length).ToArray(), Is.EqualTo(level));
            at += 4 + level.Length;
        }
    }

    [TestCase(8, 0x8100u, 1u, (byte)1)]
    [TestCase(9, 0x8100u, 0x31545844u, (byte)9)]
    public void Build_Dxt1DdsThatSaysItHasAlpha_Is1555WithAlpha(int platform, uint raster, uint alphaOrFormat, byte last)
    {
        var original = _dir.Write("hud.txd", TxdTestWriter.Write([Texture(platform, "radar", TextureFormat.Dxt1, 16, 1, 1)]));
        var bytes = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, mipCount: 2, seed: 91);
        BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(80), 0x4 | 0x1); // DDPF_FOURCC | DDPF_ALPHAPIXELS
        using var archive = Build(original, Change("radar.dds", _dir.Write("mod/radar.dds", bytes)));

        var read = TxdIndependentReader.Read(AfsTests.Materialise(archive)).Textures[0];
        Assert.That((read.RasterFormat, read.AlphaOrD3dFormat, read.CompressionOrFlags, read.Depth), Is.EqualTo((raster, alphaOrFormat, last, (byte)16)));
        Assert.That(read.Levels, Is.EqualTo(DdsIndependentReader.Read(bytes).Levels));
    }

    internal static EmulatedArchive Build(string original, params EntryChange[] changes) =>
        TxdFormat.Instance.Build(TxdFormat.Instance.ReadIndex(original), new ArchivePatch(changes));

    internal static EntryChange Change(string name, string path) => new(EntryKey.ByName(name), EntryInput.FromFile(path), "mod");

    /// <summary>
    /// Re-reads the built dictionary with the independent reader and with ours: every texture's fields and level bytes as
    /// expected; and the whole file is what the independent writer makes of the expected textures, byte for byte (depth,
    /// raster type, flags and chunk sizes included).
    /// </summary>
    private TxdRecord Verify(EmulatedArchive archive, IReadOnlyList<TxdTestWriter.Texture> expected)
    {
        var built = AfsTests.Materialise(archive);
        var read = TxdIndependentReader.Read(built, "emulated TXD");
        Assert.That(built, Is.EqualTo(TxdTestWriter.Write(expected, read.DeviceId, read.LibraryId)), "the whole dictionary");
        Assert.That(read.Textures, Has.Count.EqualTo(expected.Count));
        for (int i = 0; i < expected.Count; i++)
        {
            var (got, want) = (read.Textures[i], expected[i]);
            Assert.That((got.Platform, got.Name, got.Mask, got.FilterMode, got.UAddressing, got.VAddressing),
                Is.EqualTo((want.Platform, want.Name, want.Mask, want.FilterMode, want.UAddressing, want.VAddressing)), $"texture {i}");
            Assert.That((got.Format, got.Width, got.Height, got.MipCount), Is.EqualTo((want.Format, want.Width, want.Height, want.Levels.Count)), $"texture {i}");
            Assert.That(got.Levels, Is.EqualTo(want.Levels), $"texture {i}: level bytes");
        }
        var ours = (TxdIndex)TxdFormat.Instance.ReadIndex(_dir.Write($"built-{Guid.NewGuid():N}.txd", built));
        Assert.That(ours.Textures.Select(t => t.Name), Is.EqualTo(expected.Select(t => t.Name)));
        return read;
    }
}
