using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 22 on the committed sample game: fixtures/game/models/gta3.img + gta3.dir (IMG v1 holding a Direct3D 8 TXD) with
/// gta-textures' <c>models/gta3.img/infernus.txd/infernus_body.dds</c>, and fixtures/game/data/hud.spd with fef-mod's
/// <c>FEmulator/SPD/hud.spd/tex_1.dds</c> — all written by fixtures/make_fixtures.py, built by the CLI and re-read by the
/// independent readers.
/// </summary>
public sealed class SampleTexturesTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Gta = CliRun.Fixture("mods/gta-textures");
    private static readonly string Fef = CliRun.Fixture("mods/fef-mod");
    private static readonly string BodyDds = Path.Combine(Gta, "models/gta3.img/infernus.txd/infernus_body.dds");
    private static readonly string SpdDds = Path.Combine(Fef, "FEmulator/SPD/hud.spd/tex_1.dds");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-sample-textures");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void TheFixtures_ReadIndependently_AnImgV1PairHoldingAD3d8Txd_AndAnSpd()
    {
        var entries = ImgV1IndependentReader.ReadFiles(Path.Combine(Game, "models/gta3.img"));
        Assert.That(entries.Select(e => e.Name), Is.EqualTo(new[] { "infernus.dff", "infernus.txd" }));
        var txd = TxdIndependentReader.Read(entries[1].Bytes, "infernus.txd");
        Assert.That(txd.DeviceId, Is.EqualTo(1), "Direct3D 8, as GTA III on PC");
        Assert.That(txd.Textures.Select(t => (t.Platform, t.Name, t.Format, t.Width, t.MipCount)),
            Is.EqualTo(new[] { (8, "infernus_body", TextureFormat.Dxt1, 16, 5), (8, "infernus_wheel", TextureFormat.Dxt1, 8, 4) }));
        Assert.That(DdsIndependentReader.Read(File.ReadAllBytes(BodyDds)).MipCount, Is.EqualTo(6));

        var spd = SpdIndependentReader.Read(File.ReadAllBytes(Path.Combine(Game, "data/hud.spd")), "hud.spd");
        Assert.That(spd.Textures.Select(t => t.Id), Is.EqualTo(new[] { 0, 1 }));
        Assert.That(spd.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 1, 1 }));
    }

    [TestCase("--no-cache")]
    [TestCase("--cache")]
    public void CatTheImgPair_TheTxdInsideHasTheModsLevels_EverythingElseTheOriginals(string cacheMode)
    {
        string[] cache = cacheMode == "--cache" ? ["--cache", _dir["cache"]] : ["--no-cache"];
        if (cacheMode == "--cache")
        {
            var build = CliRun.Run(["build", "--game", Game, "--mod", Gta, .. cache, "--merge", "always"]);
            Assert.That(build.ExitCode, Is.Zero, build.ToString());
            Assert.That(build.Out, Does.Contain("models/gta3.dir  (img-v1)\n  follows    models/gta3.img (the IMG v1 directory, rebuilt to match)\n"), build.Out);
            Assert.That(build.Out, Does.Contain("models/gta3.img  (img-v1)\n  entries    1 replaced, 0 added, 0 deleted"), build.Out);
        }

        var original = ImgV1IndependentReader.ReadFiles(Path.Combine(Game, "models/gta3.img"));
        var built = ImgV1IndependentReader.Read(Cat("models/gta3.img", Gta, cache), Cat("models/gta3.dir", Gta, cache));
        Assert.That(built.Select(e => e.Name), Is.EqualTo(new[] { "infernus.dff", "infernus.txd" }));
        Assert.That(built[0].Bytes, Is.EqualTo(original[0].Bytes));

        var before = TxdIndependentReader.Read(original[1].Bytes, "original infernus.txd").Textures;
        var after = TxdIndependentReader.Read(built[1].Bytes, "built infernus.txd").Textures;
        Assert.That(after.Select(t => t.Name), Is.EqualTo(new[] { "infernus_body", "infernus_wheel" }));
        var dds = File.ReadAllBytes(BodyDds);
        Assert.That(after[0].Levels.SelectMany(l => l), Is.EqualTo(dds[128..]), "the body's levels are the DDS file after its header");
        Assert.That((after[0].Width, after[0].Height, after[0].MipCount, after[0].Format), Is.EqualTo((32, 32, 6, TextureFormat.Dxt1)));
        Assert.That((after[0].FilterFlags, after[0].Mask, after[0].Platform), Is.EqualTo((before[0].FilterFlags, before[0].Mask, 8)));
        Assert.That(SameTexture(after[1], before[1]), Is.True, "the wheel is the original native, header and levels");
    }

    [Test]
    public void LsTheImg_ShowsTheTxdReplacedThroughTheNestedRoute()
    {
        var ls = CliRun.Run("ls", "--game", Game, "--mod", Gta, "--no-cache", "models/gta3.img");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var rows = Rows(ls.Out);
        Assert.That(rows[0], Is.EqualTo("models/gta3.img img-v1 2 entries 6144 bytes"), ls.Out);
        Assert.That(rows[2..], Is.EqualTo(new[] { "0 2048 original original - infernus.dff", "1 4096 replaced nested (gta-textures) - infernus.txd" }), ls.Out);
    }

    [Test]
    public void LsTheTxdInsideTheImg_ListsItsTexturesWithFormatSizeAndMips_TheReplacedOneFromTheDds()
    {
        var ls = CliRun.Run("ls", "--game", Game, "--mod", Gta, "--no-cache", "models/gta3.img/infernus.txd");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var rows = Rows(ls.Out);
        // A D3D8 native is three 12-byte chunk headers (native, struct, extension), the 88-byte header and a u32 size before
        // each level: the body grows from 5 levels of 16x16 (184 bytes) to 6 of 32x32 (696); the entry's sector padding is kept.
        int before = 3 * 12 + 88 + 5 * 4 + 184, after = 3 * 12 + 88 + 6 * 4 + 696;
        Assert.That(rows[0], Is.EqualTo($"models/gta3.img/infernus.txd txd 2 entries {2048 - before + after} bytes"), ls.Out);
        Assert.That(rows[2..], Is.EqualTo(new[]
        {
            "0 844 replaced gta-textures mirror infernus_body.dds (DXT1 32x32, 6 mips)",
            "1 196 original original - infernus_wheel.dds (DXT1 8x8, 4 mips)",
        }), ls.Out);
    }

    [Test]
    public void CatTheSpd_TheModsDdsIsAppended_AndTheSpritesOfTexture1PointAtIt()
    {
        var original = SpdIndependentReader.Read(File.ReadAllBytes(Path.Combine(Game, "data/hud.spd")), "original hud.spd");
        var built = SpdIndependentReader.Read(Cat("data/hud.spd", Fef, ["--no-cache"]), "built hud.spd");
        Assert.That(built.Textures.Select(t => t.Id), Is.EqualTo(new[] { 0, 1, 2 }));
        Assert.That(built.Textures[2].Dds, Is.EqualTo(File.ReadAllBytes(SpdDds)));
        Assert.That(built.Textures.Take(2).Select(t => t.Dds), Is.EqualTo(original.Textures.Select(t => t.Dds)));
        Assert.That(built.Sprites.Select(s => (s.Id, s.TextureId)), Is.EqualTo(new[] { (0, 0), (1, 2), (2, 2) }));
        Assert.That(built.Sprites.Select(s => (s.X, s.Y, s.Width, s.Height)), Is.EqualTo(original.Sprites.Select(s => (s.X, s.Y, s.Width, s.Height))));
    }

    [Test]
    public void LsTheSpd_ListsTexturesAndSprites_TheAppendedTextureUnderFefsRule()
    {
        var ls = CliRun.Run("ls", "--game", Game, "--mod", Fef, "--no-cache", "data/hud.spd");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(Rows(ls.Out)[2..], Is.EqualTo(new[]
        {
            // the sizes and rectangles fixtures/make_fixtures.py writes; sprites 1 and 2 moved to the appended texture
            "0 256 original original - tex_0.dds (DXT1 16x16, 1 mip)", "1 384 original original - tex_1.dds (DXT1 32x16, 1 mip)",
            "2 1152 added fef-mod FEmulator/SPD/hud.spd tex_2.dds (DXT1 64x32, 1 mip)",
            "3 160 original original - spr_0.spdspr (on texture 0, 0,0 16x16)",
            "4 160 replaced fef-mod - spr_1.spdspr (on texture 2, 0,0 16x16)",
            "5 160 replaced fef-mod - spr_2.spdspr (on texture 2, 16,0 16x16)",
        }), ls.Out);
    }

    private byte[] Cat(string path, string mod, string[] cache)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}"];
        var cat = CliRun.Run(["cat", "--game", Game, "--mod", mod, .. cache, path, "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        return File.ReadAllBytes(output);
    }

    // Records hold arrays: compare every header field and each level's bytes.
    private static bool SameTexture(TxdTextureRecord a, TxdTextureRecord b) =>
        (a.Platform, a.FilterFlags, a.Name, a.Mask, a.RasterFormat, a.AlphaOrD3dFormat, a.Format, a.Width, a.Height, a.Depth, a.MipCount, a.RasterType, a.CompressionOrFlags)
        == (b.Platform, b.FilterFlags, b.Name, b.Mask, b.RasterFormat, b.AlphaOrD3dFormat, b.Format, b.Width, b.Height, b.Depth, b.MipCount, b.RasterType, b.CompressionOrFlags)
        && a.Levels.Count == b.Levels.Count && a.Levels.Zip(b.Levels).All(p => p.First.AsSpan().SequenceEqual(p.Second)) && a.Extension.AsSpan().SequenceEqual(b.Extension);

    private static string[] Rows(string output) => output.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n')
        .Select(l => string.Join(' ', l.Split(' ', StringSplitOptions.RemoveEmptyEntries))).ToArray();
}
