using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 22 on the committed sample game, through a real mount: the fixture mods' DDS files — gta-textures'
/// <c>models/gta3.img/infernus.txd/infernus_body.dds</c> and fef-mod's texture for <c>data/hud.spd</c>, here in mirror layout
/// (<c>data/hud.spd/tex_1.dds</c>) — change the fixture game's IMG v1 pair and SPD. The mounted files are re-read by
/// ImgV1IndependentReader, TxdIndependentReader and SpdIndependentReader and compared with the originals and the mod files.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class SampleTexturesMountTests(string fuse) : SampleGameMountFixture(fuse)
{
    private const string Img = "models/gta3.img", Dir = "models/gta3.dir", Spd = "data/hud.spd";
    private static readonly byte[] BodyDds = File.ReadAllBytes(RepositoryFiles.Fixture("mods/gta-textures/models/gta3.img/infernus.txd/infernus_body.dds"));
    private static readonly byte[] SpdDds = File.ReadAllBytes(RepositoryFiles.Fixture("mods/fef-mod/FEmulator/SPD/hud.spd/tex_1.dds"));

    private protected override void Prepare(SampleGame game)
    {
        game.Write("mods/hd-textures/" + Img + "/infernus.txd/infernus_body.dds", BodyDds);
        game.Write("mods/ui-fix/" + Spd + "/tex_1.dds", SpdDds);
    }

    [Test]
    public void TheImgPair_ReadThroughTheMount_HoldsTheTxdWithTheModsLevels()
    {
        var img = File.ReadAllBytes(_game.Mounted(Img));
        var dir = File.ReadAllBytes(_game.Mounted(Dir));

        var original = ImgV1IndependentReader.ReadFiles(Path.Combine(_game.Game, Img));
        var read = ImgV1IndependentReader.Read(img, dir);
        Assert.That(read.Select(e => e.Name), Is.EqualTo(new[] { "infernus.dff", "infernus.txd" }));
        Assert.That(read[0].Bytes, Is.EqualTo(original[0].Bytes));
        var textures = TxdIndependentReader.Read(read[1].Bytes, "mounted infernus.txd").Textures;
        var before = TxdIndependentReader.Read(original[1].Bytes, "original infernus.txd").Textures;
        Assert.That(textures.Select(t => t.Name), Is.EqualTo(new[] { "infernus_body", "infernus_wheel" }));
        Assert.That(textures[0].Levels.SelectMany(l => l), Is.EqualTo(BodyDds[128..]), "the body's levels are the DDS file after its header");
        Assert.That(textures[1].Levels, Is.EqualTo(before[1].Levels));
    }

    [Test]
    public void TheSpd_ReadThroughTheMount_HasTheModsTextureAppended_AndTheSpritesMoved()
    {
        var spd = File.ReadAllBytes(_game.Mounted(Spd));
        var read = SpdIndependentReader.Read(spd, "mounted hud.spd");
        var original = SpdIndependentReader.Read(File.ReadAllBytes(Path.Combine(_game.Game, Spd)), "original hud.spd");
        Assert.That(read.Textures.Select(t => t.Dds), Is.EqualTo(original.Textures.Select(t => t.Dds).Append(SpdDds)));
        Assert.That(read.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 2, 2 }));
    }
}
