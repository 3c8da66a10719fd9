using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Issue 22, Atlus SPD: textures and sprites as entries, FEF's naming rules for mod files (docs/DESIGN.md, "FEF's SPD rules").
/// Every emulated SPD is re-read by <see cref="SpdIndependentReader"/> and compared byte for byte with what it should hold.
/// </summary>
public sealed class SpdTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spd");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    internal static byte[] Dds(int seed, int size = 8) => DdsTestWriter.Write(TextureFormat.Dxt1, size, size, seed: seed);

    // Textures 0, 1, 2; sprites 0 and 1 on texture 0, 2 to 4 on texture 1, 5 on texture 2.
    internal static byte[] Original() => SpdTestWriter.Write(
        [new(0, Dds(1), "tex zero"), new(1, Dds(2, 16), "tex one"), new(2, Dds(3), "tex two")],
        [new(0, 0, 0, 0, 4, 4), new(1, 0, 4, 0, 4, 4), new(2, 1, 0, 0, 8, 8), new(3, 1, 8, 0, 8, 8), new(4, 1, 0, 8, 8, 8), new(5, 2, 1, 1, 2, 2)]);

    private string WriteOriginal() => _dir.Write("game/ui.spd", Original());

    private (SpdRecord Record, EmulatedArchive Archive, byte[] Bytes) Build(string spd, params (string Name, byte[]? Bytes)[] files)
    {
        var changes = files.Select(f => new EntryChange(EntryKey.ByName(f.Name),
            f.Bytes is null ? null : EntryInput.FromFile(_dir.Write($"mod/{f.Name}", f.Bytes)), "mod")).ToArray();
        var archive = SpdFormatUnderTest.Build(SpdFormatUnderTest.ReadIndex(spd), new ArchivePatch(changes));
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return (SpdIndependentReader.Read(bytes, "emulated SPD"), archive, bytes);
    }

    internal static IArchiveFormat SpdFormatUnderTest => ArchiveFormats.ByName("spd")!;

    private static SpdRecord Read(byte[] bytes) => SpdIndependentReader.Read(bytes, "original SPD");

    /// <summary>The sprite's entry with only its texture ID changed: every other byte (rectangle, scales, name) kept.</summary>
    private static byte[] Moved(SpdSpriteRecord sprite, int textureId)
    {
        var entry = (byte[])sprite.Entry.Clone();
        BinaryPrimitives.WriteInt32LittleEndian(entry.AsSpan(4), textureId);
        return entry;
    }

    [Test]
    public void ReadIndex_ListsTheTexturesThenTheSprites_AtTheirBytes()
    {
        var path = WriteOriginal();
        var original = Read(File.ReadAllBytes(path));
        var index = SpdFormatUnderTest.ReadIndex(path);
        Assert.That(ArchiveFormats.Detect(path), Is.SameAs(SpdFormatUnderTest));
        Assert.That(index.Entries.Select(e => e.Name), Is.EqualTo(new[]
            { "tex_0.dds", "tex_1.dds", "tex_2.dds", "spr_0.spdspr", "spr_1.spdspr", "spr_2.spdspr", "spr_3.spdspr", "spr_4.spdspr", "spr_5.spdspr" }));
        var bytes = File.ReadAllBytes(path);
        for (int i = 0; i < 3; i++)
            Assert.That(bytes.AsSpan((int)index.Entries[i].Offset, (int)index.Entries[i].Size).ToArray(), Is.EqualTo(original.Textures[i].Dds));
        for (int j = 0; j < 6; j++)
            Assert.That(bytes.AsSpan((int)index.Entries[3 + j].Offset, (int)index.Entries[3 + j].Size).ToArray(), Is.EqualTo(original.Sprites[j].Entry));
    }

    [Test]
    public void Build_TexFile_AppendsItsDds_AndPointsEverySpriteOnThatTextureAtIt_TheOldTextureStays()
    {
        var path = WriteOriginal();
        var original = Read(File.ReadAllBytes(path));
        var dds = Dds(9, 32);
        var (built, archive, _) = Build(path, ("tex_1.dds", dds));
        using (archive)
        {
            Assert.That(built.Textures.Select(t => (t.Id, t.Dds)), Is.EqualTo(original.Textures.Select(t => (t.Id, t.Dds)).Append((3, dds))));
            Assert.That(built.Textures.Take(3).Select(t => t.Name), Is.EqualTo(new[] { "tex zero", "tex one", "tex two" }));
            Assert.That((built.Textures[3].Name, built.Textures[3].Width, built.Textures[3].Height), Is.EqualTo(("texture_3", 32, 32)));
            Assert.That(built.Sprites.Select(s => s.Entry), Is.EqualTo(new[]
            {
                original.Sprites[0].Entry, original.Sprites[1].Entry, Moved(original.Sprites[2], 3), Moved(original.Sprites[3], 3),
                Moved(original.Sprites[4], 3), original.Sprites[5].Entry,
            }));
            var states = archive.Entries.Select(e => (e.Name, e.State, e.Origin)).ToArray();
            Assert.That(states[1], Is.EqualTo(("tex_1.dds", EntryState.Original, "original")));
            Assert.That(states[3], Is.EqualTo(("tex_3.dds", EntryState.Added, "mod")));
            Assert.That(states[6..9].Select(s => s.State), Is.All.EqualTo(EntryState.Replaced));
            Assert.That(new[] { states[4], states[5], states[9] }.Select(s => s.State), Is.All.EqualTo(EntryState.Original));
        }
    }

    [Test]
    public void Build_TexFileWithExclusions_LeavesTheListedSpritesOnTheOldTexture()
    {
        var path = WriteOriginal();
        var original = Read(File.ReadAllBytes(path));
        var (built, archive, _) = Build(path, ("tex_1~3.dds", Dds(10)));
        using (archive)
            Assert.That(built.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 0, 3, 1, 3, 2 }));
        Assert.That(built.Sprites[3].Entry, Is.EqualTo(original.Sprites[3].Entry));
    }

    [Test]
    public void Build_SprFile_WithIdsAndARange_PointsOnlyThoseSpritesAtItsTexture()
    {
        var path = WriteOriginal();
        var original = Read(File.ReadAllBytes(path));
        var dds = Dds(11);
        var (built, archive, _) = Build(path, ("spr_0_4-5.dds", dds));
        using (archive)
        {
            Assert.That(built.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 3, 0, 1, 1, 3, 3 }));
            Assert.That(built.Sprites[4].Entry, Is.EqualTo(Moved(original.Sprites[4], 3)));
            Assert.That(built.Textures[3].Dds, Is.EqualTo(dds));
        }
    }

    [Test]
    public void Build_SprFileAndTexFile_TheSpriteTheSprFileNames_TakesItsTexture()
    {
        var path = WriteOriginal();
        var (built, archive, _) = Build(path, ("tex_1.dds", Dds(12)), ("spr_3.dds", Dds(13)));
        using (archive)
        {
            // Name order gives the new IDs: spr_3.dds is 3, tex_1.dds is 4.
            Assert.That(built.Textures.Select(t => t.Id), Is.EqualTo(new[] { 0, 1, 2, 3, 4 }));
            Assert.That(built.Textures[3].Dds, Is.EqualTo(Dds(13)));
            Assert.That(built.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 0, 4, 3, 4, 2 }));
        }
    }

    [Test]
    public void Build_SpdsprFile_ReplacesTheSpritesRecord()
    {
        var path = WriteOriginal();
        var record = Read(SpdTestWriter.Write([new(0, Dds(1))], [new(1, 0, 2, 2, 3, 3)])).Sprites[0].Entry;
        var (built, archive, _) = Build(path, ("spr_1.spdspr", record));
        using (archive)
        {
            Assert.That(built.Sprites[1].Entry, Is.EqualTo(record));
            Assert.That(archive.Entries.Single(e => e.Name == "spr_1.spdspr").State, Is.EqualTo(EntryState.Replaced));
            Assert.That(built.Textures.Count, Is.EqualTo(3));
        }
    }

    [Test]
    public void Build_SpdsprAndDdsForANewId_AddsTheSpriteOnTheNewTexture()
    {
        var path = WriteOriginal();
        var record = Read(SpdTestWriter.Write([new(0, Dds(1))], [new(420, 0, 1, 2, 3, 4)])).Sprites[0].Entry;
        var dds = Dds(14);
        var (built, archive, _) = Build(path, ("spr_420.spdspr", record), ("spr_420.dds", dds));
        using (archive)
        {
            Assert.That(built.Sprites.Select(s => s.Id), Is.EqualTo(new[] { 0, 1, 2, 3, 4, 5, 420 }));
            var added = built.Sprites[6];
            Assert.That((added.TextureId, added.X, added.Y, added.Width, added.Height), Is.EqualTo((3, 1, 2, 3, 4)));
            Assert.That(added.Entry, Is.EqualTo(Moved(Read(SpdTestWriter.Write([new(0, Dds(1))], [new(420, 0, 1, 2, 3, 4)])).Sprites[0], 3)));
            Assert.That(built.Textures[3].Dds, Is.EqualTo(dds));
            Assert.That(archive.Entries.Single(e => e.Name == "spr_420.spdspr").State, Is.EqualTo(EntryState.Added));
        }
    }

    [Test]
    public void Build_TextureBytes_AreSlicesOfTheOriginalAndTheModFile_OnlyTheTablesAreInMemory()
    {
        var path = WriteOriginal();
        var original = Read(File.ReadAllBytes(path));
        var dds = Dds(15, 64);
        var (built, archive, _) = Build(path, ("tex_0.dds", dds));
        using (archive)
        {
            Assert.That(archive.BytesFromLooseFiles, Is.EqualTo(dds.Length));
            Assert.That(archive.BytesFromOriginal, Is.EqualTo(original.Textures.Sum(t => t.Dds.Length)));
            Assert.That(archive.BytesGenerated, Is.EqualTo(0x20 + 4 * 0x30 + 6 * 0xA0));
            Assert.That(built.Textures[3].DataOffset, Is.EqualTo(0x20 + 4 * 0x30 + 6 * 0xA0 + original.Textures.Sum(t => t.Dds.Length)));
        }
    }

    [TestCase("readme.txt", "names no SPD texture or sprite")]
    [TestCase("tex_x.dds", "names no SPD texture or sprite")]
    [TestCase("tex_1~.dds", "names no SPD texture or sprite")]
    [TestCase("spr_5-3.dds", "names no SPD texture or sprite")]
    [TestCase("tex_7.dds", "has no texture 7")]
    [TestCase("tex_1~9.dds", "sprite 9")]
    [TestCase("spr_0_99.dds", "sprite 99")]
    [TestCase("spr_0-999999999.dds", "more than the SPD's 6")]
    public void Build_ABadName_IsOneErrorNamingTheArchiveAndTheName(string name, string problem)
    {
        var path = WriteOriginal();
        Assert.That(() => Build(path, (name, Dds(16))), Throws.InstanceOf<ArchiveFormatException>()
            .With.Message.Contains(path).And.Message.Contains(name).And.Message.Contains(problem));
    }

    // Sprite 2's record, as the original holds it: offered as sprite 1's, whole and cut short.
    private static byte[] Sprite2Record => Read(Original()).Sprites[2].Entry;

    private static IEnumerable<TestCaseData> Refusals() =>
    [
        Refusal("a delete", "cannot be deleted", ("tex_0.dds", null)),
        Refusal("a DDS that is not one", "not a DDS file", ("tex_0.dds", new byte[200])),
        Refusal("another sprite's record", "holds sprite 2, not 1", ("spr_1.spdspr", Sprite2Record)),
        Refusal("a short record", "a sprite record is 160", ("spr_1.spdspr", Sprite2Record[..100])),
        Refusal("a sprite named twice", "sprite 0 is named by both", ("spr_0.dds", Dds(17)), ("spr_0_1.dds", Dds(18))),
        Refusal("a texture replaced twice", "texture 1 is replaced by both", ("tex_1.dds", Dds(17)), ("tex_1~2.dds", Dds(18))),
    ];

    private static TestCaseData Refusal(string name, string problem, params (string Name, byte[]? Bytes)[] files) =>
        new TestCaseData(files, problem).SetArgDisplayNames(name);

    [TestCaseSource(nameof(Refusals))]
    public void Build_ADelete_ADdsThatIsNotOne_AndABadSpriteRecord_AreRefused((string Name, byte[]? Bytes)[] files, string problem)
    {
        var path = WriteOriginal();
        Assert.That(() => Build(path, files), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(problem));
    }
}
