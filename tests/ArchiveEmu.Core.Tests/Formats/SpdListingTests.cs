using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Issue 22, <c>ls</c> for SPD and SPR: each entry's <see cref="EmulatedEntry.Detail"/> (a texture's format and size, a sprite's
/// texture and rectangle), checked against what <see cref="SpdIndependentReader"/> and <see cref="SprIndependentReader"/> read
/// from the same bytes.
/// </summary>
public sealed class SpdListingTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spdls");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static IArchiveFormat Spd => ArchiveFormats.ByName("spd")!;
    private static IArchiveFormat Spr => ArchiveFormats.ByName("spr")!;

    // Textures of four formats, one with a mip chain; sprites on each.
    private static byte[] OriginalSpd() => SpdTestWriter.Write(
        [
            new(0, DdsTestWriter.Write(TextureFormat.Dxt1, 16, 8, mipCount: 5, seed: 1)),
            new(1, DdsTestWriter.Write(TextureFormat.Dxt3, 8, 8, seed: 2)),
            new(5, DdsTestWriter.Write(TextureFormat.X8R8G8B8, 4, 2, seed: 3)),
        ],
        [new(0, 0, 0, 0, 8, 8), new(1, 0, 8, 0, 8, 8), new(7, 1, 1, 2, 3, 4), new(9, 5, -1, 0, 4, 2)]);

    private EmulatedArchive Build(IArchiveFormat format, string original, params (string Name, byte[] Bytes)[] files)
    {
        var changes = files.Select(f => new EntryChange(EntryKey.ByName(f.Name), EntryInput.FromFile(_dir.Write($"mod/{f.Name}", f.Bytes)), "mod")).ToArray();
        return format.Build(format.ReadIndex(original), new ArchivePatch(changes));
    }

    private static byte[] Bytes(EmulatedArchive archive)
    {
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>The details the independent reader's view of an SPD calls for, textures then sprites, in table order.</summary>
    private static string[] Expected(SpdRecord spd) =>
    [
        .. spd.Textures.Select(t => $"{t.Image.Format.ToString().ToUpperInvariant()} {t.Image.Width}x{t.Image.Height}, {Mips(t.Image.MipCount)}"),
        .. spd.Sprites.Select(s => $"on texture {s.TextureId}, {s.X},{s.Y} {s.Width}x{s.Height}"),
    ];

    private static string[] Expected(SprRecord spr) =>
    [
        .. spr.Textures.Select(t => $"TMX {t.Tmx.Width}x{t.Tmx.Height}, {(t.Tmx.PixelFormat == 0 ? 32 : -1)} bpp"),
        .. spr.Sprites.Select(s => $"on texture {s.TextureIndex}, {s.X1},{s.Y1}-{s.X2},{s.Y2}"),
    ];

    private static string Mips(int count) => count == 1 ? "1 mip" : $"{count} mips";

    [Test]
    public void Spd_Unchanged_EveryTextureShowsItsDdsFormatSizeAndMips_AndEverySpriteItsTextureAndRectangle()
    {
        var path = _dir.Write("game/ui.spd", OriginalSpd());
        using var archive = Build(Spd, path);
        Assert.That(archive.Entries.Select(e => e.Detail), Is.EqualTo(Expected(SpdIndependentReader.Read(File.ReadAllBytes(path)))));
        Assert.That(archive.Entries.Select(e => e.Detail), Is.EqualTo(new[]
        {
            "DXT1 16x8, 5 mips", "DXT3 8x8, 1 mip", "X8R8G8B8 4x2, 1 mip",
            "on texture 0, 0,0 8x8", "on texture 0, 8,0 8x8", "on texture 1, 1,2 3x4", "on texture 5, -1,0 4x2",
        }));
    }

    [Test]
    public void Spd_Patched_AnAddedTextureShowsTheModsDds_AndAMovedOrReplacedSpriteItsNewTexture()
    {
        var path = _dir.Write("game/ui.spd", OriginalSpd());
        var record = SpdTestWriter.SpriteEntry(new(7, 1, 20, 30, 40, 50));
        using var archive = Build(Spd, path,
            ("tex_0.dds", DdsTestWriter.Write(TextureFormat.Dxt5, 32, 16, mipCount: 6, seed: 4)),
            ("spr_9.dds", DdsTestWriter.Write(TextureFormat.A8R8G8B8, 2, 2, seed: 5)),
            ("spr_7.spdspr", record));
        var built = SpdIndependentReader.Read(Bytes(archive), "emulated SPD");
        Assert.That(archive.Entries.Select(e => e.Detail), Is.EqualTo(Expected(built)));
        // New IDs go in name order: spr_9.dds is texture 6 (A8R8G8B8, sprite 9), tex_0.dds is 7 (DXT5, sprites 0 and 1).
        Assert.That(archive.Entries.Select(e => (e.Name, e.Detail)).Skip(3), Is.EqualTo(new[]
        {
            ("tex_6.dds", "A8R8G8B8 2x2, 1 mip"), ("tex_7.dds", "DXT5 32x16, 6 mips"),
            ("spr_0.spdspr", "on texture 7, 0,0 8x8"), ("spr_1.spdspr", "on texture 7, 8,0 8x8"),
            ("spr_7.spdspr", "on texture 1, 20,30 40x50"), ("spr_9.spdspr", "on texture 6, -1,0 4x2"),
        }));
    }

    [Test]
    public void Spd_ATextureWhoseDdsHeaderMakesNoSense_IsListedAsSuch_NotRefused()
    {
        var ati2 = DdsTestWriter.Write(TextureFormat.Dxt5, 8, 8, seed: 6);
        "ATI2"u8.CopyTo(ati2.AsSpan(84));
        var rgb16 = DdsTestWriter.Write(TextureFormat.A8R8G8B8, 4, 4, seed: 7);
        BinaryPrimitives.WriteUInt32LittleEndian(rgb16.AsSpan(88), 16);
        var path = _dir.Write("game/odd.spd", SpdTestWriter.Write(
            [new(0, TestData.Random(8, 40)), new(1, ati2), new(2, rgb16), new(3, [.. "DDS "u8, .. new byte[200]])],
            [new(0, 3, 0, 0, 1, 1)]));
        var junk = TestData.Random(9, 0x80); // the magic the builder asks for, then noise
        "DDS "u8.CopyTo(junk);
        using var archive = Build(Spd, path, ("spr_0.dds", junk));
        Assert.That(archive.Entries.Select(e => e.Detail), Is.EqualTo(new[]
        {
            "DDS, unknown format", "ATI2 8x8, 1 mip", "unknown format 4x4, 1 mip", "DDS, unknown format", "DDS, unknown format",
            "on texture 4, 0,0 1x1",
        }));
    }

    private static byte[] OriginalSpr() => SprTestWriter.Write([TmxTestWriter.Write(4, 4, 1), TmxTestWriter.Write(8, 2, 2)],
        [new(0, 0, 0, 4, 4), new(1, 1, 0, 5, 2), new(1, -2, 1, 8, 2)]);

    [Test]
    public void Spr_Unchanged_AndPatched_TexturesShowTheirTmxSizeAndDepth_SpritesTheirTextureAndCorners()
    {
        var path = _dir.Write("game/map.spr", OriginalSpr());
        using (var unchanged = Build(Spr, path))
        {
            Assert.That(unchanged.Entries.Select(e => e.Detail), Is.EqualTo(Expected(SprIndependentReader.Read(File.ReadAllBytes(path)))));
            Assert.That(unchanged.Entries.Select(e => e.Detail), Is.EqualTo(new[]
                { "TMX 4x4, 32 bpp", "TMX 8x2, 32 bpp", "on texture 0, 0,0-4,4", "on texture 1, 1,0-5,2", "on texture 1, -2,1-8,2" }));
        }

        var record = SprTestWriter.SpriteEntry(new(0, 3, 3, 4, 4));
        using var patched = Build(Spr, path, ("tex_1~2.tmx", TmxTestWriter.Write(16, 8, 3)), ("spr_0.sprt", record));
        Assert.That(patched.Entries.Select(e => e.Detail), Is.EqualTo(Expected(SprIndependentReader.Read(Bytes(patched), "emulated SPR"))));
        Assert.That(patched.Entries.Select(e => (e.Name, e.Detail)).Skip(2), Is.EqualTo(new[]
        {
            ("tex_2.tmx", "TMX 16x8, 32 bpp"), ("spr_0.sprt", "on texture 0, 3,3-4,4"), ("spr_1.sprt", "on texture 2, 1,0-5,2"),
            ("spr_2.sprt", "on texture 1, -2,1-8,2"),
        }));
    }

    [TestCase(0x14, "TMX 4x4, 4 bpp")]
    [TestCase(0x0A, "TMX 4x4, 16 bpp")]
    [TestCase(0x7F, "TMX 4x4, pixel format 0x7F")]
    public void Spr_ATmxPixelFormat_IsShownAsItsBitsAPixel_OrAsItsNumber(byte mode, string detail)
    {
        var tmx = TmxTestWriter.Write(4, 4, 1);
        tmx[0x16] = mode;
        var path = _dir.Write("game/one.spr", SprTestWriter.Write([tmx], [new(0, 0, 0, 4, 4)]));
        using var archive = Build(Spr, path);
        Assert.That(archive.Entries[0].Detail, Is.EqualTo(detail));
    }
}
