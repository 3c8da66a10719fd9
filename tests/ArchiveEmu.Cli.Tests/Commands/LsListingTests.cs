using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 18: <c>ls</c> said "7 entries" above 8 rows (an AFS slot emptied by a mod) and, for a ZIP, listed index 0 twice
/// (the entry a mod deleted kept its old index, the next one took it). The count is the emulated archive's entries, every
/// one a row with its index; entries a mod removed from a name-addressed archive follow, counted apart, without an index.
/// </summary>
public sealed class LsListingTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-ls");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Ls_AfsWithAnEmptiedSlot_CountsEveryRow()
    {
        var result = CliRun.Run("ls", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/ui-fix"), "--no-cache", "data/textures.afs");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.That(lines[0], Does.StartWith("data/textures.afs  afs  8 entries  "), result.Out);
        Assert.That(lines[2..].Select(l => l[..6].Trim()), Is.EqualTo(Enumerable.Range(0, 8).Select(i => i.ToString())), result.Out);
        Assert.That(lines[3], Does.Contain("deleted   ui-fix"), result.Out);
    }

    [Test]
    public void Ls_ZipWithADeletedEntry_NoIndexTwice_AndTheCountIsTheRowsWithAnIndex()
    {
        var game = _dir.Write("game/data/ui.zip", File.ReadAllBytes(CliRun.Fixture("game/data/ui.zip")));
        _dir.Write("mod/data/ui.zip/textures/button.dds.del", []);
        var result = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/ui.zip");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());

        var cat = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/ui.zip", "-o", _dir["out.zip"]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(result.Out.ReplaceLineEndings("\n"), Is.EqualTo(
            $"data/ui.zip  zip  1 entry (and 1 deleted)  {new FileInfo(_dir["out.zip"]).Length} bytes\n"
            + " index        size  state     origin            rule                          name\n"
            + "     0          13  original  original          -                             layout.txt\n"
            + "     -           0  deleted   mod               mirror                        textures/button.dds\n"));
        Assert.That(File.Exists(game));
    }

    [Test]
    public void Ls_Txd_ShowsEachTexturesFormatSizeAndMips_AfterItsName_AndInJson()
    {
        _dir.Write("game/models/car.txd", TxdTestWriter.Write(
        [
            TxdTestWriter.Texture.Create(9, "body", "", TextureFormat.Dxt1, 64, 32, mipCount: 7, seed: 1),
            TxdTestWriter.Texture.Create(9, "glass", "", TextureFormat.Dxt5, 16, 16, mipCount: 1, seed: 2),
        ]));
        _dir.Write("mod/models/car.txd/glass.dds", DdsTestWriter.Write(TextureFormat.A8R8G8B8, 8, 8, mipCount: 4, seed: 3));
        var args = new[] { "ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "models/car.txd" };
        var result = CliRun.Run(args);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n');
        Assert.That(lines[0], Does.StartWith("models/car.txd  txd  2 entries  "), result.Out);
        Assert.That(lines[2], Does.EndWith("body.dds  (DXT1 64x32, 7 mips)"), result.Out);
        Assert.That(lines[3], Does.Contain("replaced").And.EndWith("glass.dds  (A8R8G8B8 8x8, 4 mips)"), result.Out);

        var json = CliRun.Run([.. args, "--json"]);
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("entries").EnumerateArray().Select(e => e.GetProperty("detail").GetString()),
            Is.EqualTo(new[] { "DXT1 64x32, 7 mips", "A8R8G8B8 8x8, 4 mips" }));
    }
}
