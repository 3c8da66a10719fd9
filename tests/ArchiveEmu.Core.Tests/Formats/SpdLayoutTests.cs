using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The layout of a built SPD as FEF's SPD builder writes it (docs/FORMATS.md, "SPD"): the header's file size, counts and
/// table offsets, each texture record's data offset and size with the DDS files back to back after the sprite table;
/// which entries carry the loose file they came from; the 2 GiB limit of its offsets (an input of zeros).
/// </summary>
public sealed class SpdLayoutTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spd-layout");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private EmulatedArchive Build(params (string Name, EntryInput Input)[] files)
    {
        var spd = _dir.Write("ui.spd", SpdTests.Original());
        var changes = files.Select(f => new EntryChange(EntryKey.ByName(f.Name), f.Input, "mod")).ToArray();
        return SpdTests.SpdFormatUnderTest.Build(SpdTests.SpdFormatUnderTest.ReadIndex(spd), new ArchivePatch(changes));
    }

    [Test]
    public void Build_ANewTextureAndARecord_LayOutTablesAndDdsFilesAsFefDoes_AndOnlyTheRecordCarriesItsFile()
    {
        var dds = SpdTests.Dds(9); // 8x8 DXT1: 160 bytes, as long as a sprite record
        Assert.That(dds, Has.Length.EqualTo(0xA0));
        var record = SpdIndependentReader.Read(SpdTests.Original()).Sprites[5].Entry;
        var ddsInput = EntryInput.FromFile(_dir.Write("mod/tex_1.dds", dds));
        var recordInput = EntryInput.FromFile(_dir.Write("mod/spr_5.spdspr", record));
        using var archive = Build(("tex_1.dds", ddsInput), ("spr_5.spdspr", recordInput));
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);

        var original = SpdIndependentReader.Read(SpdTests.Original());
        int textures = 4, sprites = 6;
        int spriteTable = 0x20 + 0x30 * textures, data = spriteTable + 0xA0 * sprites;
        var sizes = original.Textures.Select(t => t.Dds.Length).Append(dds.Length).ToArray();
        Assert.That(bytes, Has.Length.EqualTo(data + sizes.Sum()));
        Assert.That(U32(bytes, 0x08), Is.EqualTo(bytes.Length), "the header's file size");
        Assert.That((U16(bytes, 0x14), U16(bytes, 0x16)), Is.EqualTo((textures, sprites)));
        Assert.That((U32(bytes, 0x18), U32(bytes, 0x1C)), Is.EqualTo((0x20, spriteTable)));
        Assert.That(Enumerable.Range(0, textures).Select(i => (U32(bytes, 0x20 + 0x30 * i + 8), U32(bytes, 0x20 + 0x30 * i + 12))),
            Is.EqualTo(Enumerable.Range(0, textures).Select(i => (data + sizes.Take(i).Sum(), sizes[i]))), "each texture's data, back to back");

        Assert.That(archive.Entries.Select(e => e.Index), Is.EqualTo(Enumerable.Range(0, textures + sprites)));
        Assert.That(archive.Entries.Where(e => e.Input is not null).Select(e => $"{e.Name} {e.Input!.Path}"), Is.EqualTo(new[]
        {
            $"tex_3.dds {ddsInput.Path}", $"spr_5.spdspr {recordInput.Path}",
        }), "sprites moved onto the new texture are the DDS file's change, but not made of its bytes");
    }

    [Test]
    public void Build_AnSpdPast2GiB_IsRefusedNamingItsSize()
    {
        var header = DdsTestWriter.Write(TextureFormat.Dxt1, 4, 4, seed: 1)[..DdsTestWriter.HeaderSize];
        // Two textures of 1.1 GiB: each fits an SPD's sizes, together they pass its offsets.
        EntryInput Huge() => ZeroInputs.Of(1100L << 20, header);
        Assert.That(() => Build(("tex_1.dds", Huge()), ("tex_2.dds", Huge())), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("the emulated SPD would be 2306869264 bytes; SPD offsets stop at 2 GiB"));
    }

    private static int U32(byte[] b, int at) => SprLayoutTests.U32(b, at);
    private static int U16(byte[] b, int at) => SprLayoutTests.U16(b, at);
}
