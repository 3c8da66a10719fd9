using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 22: <c>ls</c> of an Atlus SPD lists its textures (<c>tex_&lt;id&gt;.dds</c>) and sprites (<c>spr_&lt;id&gt;.spdspr</c>); a mod's
/// <c>tex_1.dds</c> shows as the texture FEF appends, under its FEF rule, and the sprites it moved as replaced.
/// </summary>
public sealed class LsSpdTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-ls-spd");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Ls_Spd_ListsTexturesAndSprites_TheAppendedTextureUnderItsRule()
    {
        var dds = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, seed: 1);
        _dir.Write("game/ui.spd", SpdTestWriter.Write([new(0, dds), new(1, dds)], [new(0, 0, 0, 0, 4, 4), new(1, 1, 0, 0, 4, 4)]));
        var mine = DdsTestWriter.Write(TextureFormat.Dxt1, 16, 16, seed: 2);
        _dir.Write("mod/FEmulator/SPD/ui.spd/tex_1.dds", mine);
        var result = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "ui.spd");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.That(lines[0], Does.StartWith("ui.spd  spd  5 entries  "), result.Out);
        var rows = lines[2..].Select(l => string.Join(' ', l.Split(' ', StringSplitOptions.RemoveEmptyEntries))).ToArray();
        Assert.That(rows, Is.EqualTo(new[]
        {
            $"0 {dds.Length} original original - tex_0.dds (DXT1 8x8, 1 mip)",
            $"1 {dds.Length} original original - tex_1.dds (DXT1 8x8, 1 mip)",
            $"2 {mine.Length} added mod FEmulator/SPD/ui.spd tex_2.dds (DXT1 16x16, 1 mip)",
            "3 160 original original - spr_0.spdspr (on texture 0, 0,0 4x4)",
            "4 160 replaced mod - spr_1.spdspr (on texture 2, 0,0 4x4)",
        }), result.Out);
    }

    [Test]
    public void Ls_Spd_ShowsTheNewTexturesDds_AndTheMovedSpritesNewTexture_AfterTheirNames_AndInJson()
    {
        _dir.Write("game/ui/menu.spd", SpdTestWriter.Write(
            [new(0, DdsTestWriter.Write(TextureFormat.Dxt1, 16, 16, mipCount: 5, seed: 1)), new(1, DdsTestWriter.Write(TextureFormat.Dxt3, 8, 8, seed: 2))],
            [new(0, 0, 2, 4, 8, 6), new(1, 1, 0, 0, 8, 8)]));
        _dir.Write("mod/ui/menu.spd/tex_0.dds", DdsTestWriter.Write(TextureFormat.Dxt5, 32, 32, mipCount: 6, seed: 3));
        var args = new[] { "ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "ui/menu.spd" };
        var result = CliRun.Run(args);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.That(lines[0], Does.StartWith("ui/menu.spd  spd  5 entries  "), result.Out);
        Assert.That(lines[2], Does.EndWith("tex_0.dds  (DXT1 16x16, 5 mips)"), result.Out);
        Assert.That(lines[4], Does.Contain("added").And.EndWith("tex_2.dds  (DXT5 32x32, 6 mips)"), result.Out);
        Assert.That(lines[5], Does.Contain("replaced").And.EndWith("spr_0.spdspr  (on texture 2, 2,4 8x6)"), result.Out);
        Assert.That(lines[6], Does.Contain("original").And.EndWith("spr_1.spdspr  (on texture 1, 0,0 8x8)"), result.Out);

        var json = CliRun.Run([.. args, "--json"]);
        using var doc = JsonDocument.Parse(json.Out);
        var details = doc.RootElement.GetProperty("entries").EnumerateArray().Select(e => e.GetProperty("detail").GetString()).ToArray();
        Assert.That(details, Is.EqualTo(new[]
            { "DXT1 16x16, 5 mips", "DXT3 8x8, 1 mip", "DXT5 32x32, 6 mips", "on texture 2, 2,4 8x6", "on texture 1, 0,0 8x8" }));

        // The same numbers as the independent reader finds in the emulated file.
        var cat = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "ui/menu.spd", "-o", _dir["out.spd"]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        var spd = SpdIndependentReader.Read(File.ReadAllBytes(_dir["out.spd"]));
        Assert.That(spd.Textures.Select(t => (t.Image.Format, t.Image.Width, t.Image.MipCount)),
            Is.EqualTo(new[] { (TextureFormat.Dxt1, 16, 5), (TextureFormat.Dxt3, 8, 1), (TextureFormat.Dxt5, 32, 6) }));
        Assert.That(spd.Sprites.Select(p => (p.TextureId, p.X, p.Y, p.Width, p.Height)), Is.EqualTo(new[] { (2, 2, 4, 8, 6), (1, 0, 0, 8, 8) }));
    }
}
