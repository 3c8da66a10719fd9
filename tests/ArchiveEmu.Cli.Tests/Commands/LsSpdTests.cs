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
            $"0 {dds.Length} original original - tex_0.dds",
            $"1 {dds.Length} original original - tex_1.dds",
            $"2 {mine.Length} added mod FEmulator/SPD/ui.spd tex_2.dds",
            "3 160 original original - spr_0.spdspr",
            "4 160 replaced mod - spr_1.spdspr",
        }), result.Out);
    }
}
