using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The layout of a built SPR, field by field as FEF's SPR builder writes it (docs/FORMATS.md, "SPR"): the header's file
/// size, counts and table offsets; texture pointers, sprite pointers, zeros to a 16-byte boundary, the 0x80-byte sprite
/// records, then the TMX files back to back. <c>SprIndependentReader</c> does not check the size field (Amicitia writes 0
/// there), so these tests read it here. Also the 16-bit sprite count at its limit.
/// </summary>
public sealed class SprLayoutTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spr-layout");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static IArchiveFormat Spr => ArchiveFormats.ByName("spr")!;

    private byte[] Build(out EmulatedArchive archive, params (string Name, byte[] Bytes)[] files)
    {
        var spr = _dir.Write("map.spr", SprTests.Original());
        var changes = files.Select(f => new EntryChange(EntryKey.ByName(f.Name), EntryInput.FromBytes(f.Bytes), "mod")).ToArray();
        archive = Spr.Build(Spr.ReadIndex(spr), new ArchivePatch(changes));
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return bytes;
    }

    [TestCase(1)]
    [TestCase(3)]
    public void Build_NewTexturesAndSprites_LayOutTablesRecordsAndTmxFilesAsFefDoes(int addedSprites)
    {
        var tmx = SprTests.Tmx(9, 16);
        var record = SprIndependentReader.Read(SprTestWriter.Write([SprTests.Tmx(1)], [new(0, 1, 2, 3, 4, "added")])).Sprites[0].Entry;
        var files = new List<(string, byte[])> { ("tex_1.tmx", tmx) };
        for (int k = 0; k < addedSprites; k++)
            files.Add(($"spr_{3 + k}.sprt", record));
        var bytes = Build(out var archive, [.. files]);
        using (archive)
        {
            var original = SprIndependentReader.Read(SprTests.Original());
            int textures = 3, sprites = 3 + addedSprites;
            int records = 0x20 + (8 * (textures + sprites) + 15) / 16 * 16;
            int data = records + 0x80 * sprites;
            var tmxSizes = original.Textures.Select(t => t.Tmx.Bytes.Length).Append(tmx.Length).ToArray();
            Assert.That(bytes, Has.Length.EqualTo(data + tmxSizes.Sum()));
            Assert.That(U32(bytes, 0x10), Is.EqualTo(bytes.Length), "the header's file size");
            Assert.That((U16(bytes, 0x14), U16(bytes, 0x16)), Is.EqualTo((textures, sprites)));
            Assert.That((U32(bytes, 0x18), U32(bytes, 0x1C)), Is.EqualTo((0x20, 0x20 + 8 * textures)), "texture, then sprite pointer tables");
            Assert.That(Enumerable.Range(0, sprites).Select(j => U32(bytes, 0x20 + 8 * (textures + j) + 4)),
                Is.EqualTo(Enumerable.Range(0, sprites).Select(j => records + 0x80 * j)), "sprite records after the padded pointers");
            Assert.That(bytes.AsSpan(0x20 + 8 * (textures + sprites), records - 0x20 - 8 * (textures + sprites)).ToArray(), Is.All.Zero);
            Assert.That(Enumerable.Range(0, textures).Select(i => U32(bytes, 0x20 + 8 * i + 4)),
                Is.EqualTo(Enumerable.Range(0, textures).Select(i => data + tmxSizes.Take(i).Sum())), "TMX files back to back");
            Assert.That(archive.Entries.Select(e => $"{e.Name} {e.State} {e.Origin}").Skip(textures), Is.EqualTo(
                new[] { "spr_0.sprt Original original", "spr_1.sprt Replaced mod", "spr_2.sprt Replaced mod" }
                    .Concat(Enumerable.Range(3, addedSprites).Select(j => $"spr_{j}.sprt Added mod"))));
        }
    }

    [Test]
    public void Build_SpritesUpTo65535_FitTheCount_65536AreRefused()
    {
        // A sprite added past the end is preceded by FEF's zeroed records: spr_65534 makes 65,535 sprites.
        var record = SprIndependentReader.Read(SprTests.Original()).Sprites[0].Entry;
        var bytes = Build(out var archive, ("spr_65534.sprt", record));
        using (archive)
            Assert.That(U16(bytes, 0x16), Is.EqualTo(65535));
        Assert.That(() => Build(out _, ("spr_65535.sprt", record)), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains("'spr_65535.sprt': sprite 65535 is past the 65535 an SPR can count"));
    }

    /// <summary>Little-endian fields as the Atlus sprite formats store them (SPR and SPD alike).</summary>
    internal static int U32(byte[] b, int at) => (int)BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(at));
    internal static int U16(byte[] b, int at) => BinaryPrimitives.ReadUInt16LittleEndian(b.AsSpan(at));
}
