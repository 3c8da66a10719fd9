using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 19, the Reloaded-II / FEF layout through the CLI, with the fixture mod fixtures/mods/fef-mod: FEmulator/AFS/textures.afs
/// replaces entries 2 and 3 of data/textures.afs, FEmulator/SPD/hud.spd/tex_1.dds texture 1 of data/hud.spd (FEF appends it and
/// moves the sprites), Redirector/data/readme.txt the readme; its ModConfig.json and Preview.png are never game files. Each input
/// says which rule placed it.
/// </summary>
public sealed class FefModTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Fef = CliRun.Fixture("mods/fef-mod");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private const string AfsRule = "FEmulator/AFS/textures.afs";
    private const string SpdRule = "FEmulator/SPD/hud.spd";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("fef-cli");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static string[] Lines(string text) => text.ReplaceLineEndings("\n").Split('\n');

    [Test]
    public void BuildJson_FefMod_NamesTheRuleOfEachInput_AndServesNoMetadata()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Fef, "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var archives = doc.RootElement.GetProperty("archives").EnumerateArray().ToArray();
        Assert.That(archives.Select(a => a.GetProperty("path").GetString()), Is.EqualTo(new[] { "data/hud.spd", "data/textures.afs" }));
        (string?, string?, string?)[] Inputs(JsonElement archive) => archive.GetProperty("inputs").EnumerateArray()
            .Select(i => (i.GetProperty("entry").GetString(), i.GetProperty("mod").GetString(), i.GetProperty("rule").GetString())).ToArray();
        Assert.That(Inputs(archives[1]), Is.EquivalentTo(new[] { ("2", "fef-mod", AfsRule), ("3", "fef-mod", AfsRule) }));
        Assert.That(Inputs(archives[0]), Is.EqualTo(new[] { ("tex_1.dds", "fef-mod", SpdRule) }));
        var overrides = doc.RootElement.GetProperty("overrides").EnumerateArray()
            .Select(o => (o.GetProperty("path").GetString(), o.GetProperty("rule").GetString())).ToArray();
        Assert.That(overrides, Is.EqualTo(new[] { ("data/readme.txt", "Redirector") }), "ModConfig.json and Preview.png are the mod's, not the game's");
        Assert.That(doc.RootElement.GetProperty("warnings").GetArrayLength(), Is.Zero, result.Out);
    }

    [Test]
    public void Build_MirrorModThenFefMod_TheFefModWins_AndTheConflictNamesBothRules()
    {
        var json = CliRun.Run("build", "--game", Game, "--mod", Hd, "--mod", Fef, "--no-cache", "--json");
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        // hd-textures also replaces an entry of data/data.cpk, which fef-mod does not touch (and fef-mod data/hud.spd): no conflict there.
        var archives = doc.RootElement.GetProperty("archives").EnumerateArray().ToArray();
        Assert.That(archives.Select(a => a.GetProperty("path").GetString()), Is.EquivalentTo(new[] { "data/data.cpk", "data/hud.spd", "data/textures.afs" }));
        Assert.That(archives.Single(a => a.GetProperty("path").GetString() == "data/data.cpk").GetProperty("conflicts").GetArrayLength(), Is.Zero);
        var conflict = archives.Single(a => a.GetProperty("path").GetString() == "data/textures.afs")
            .GetProperty("conflicts").EnumerateArray().Single();
        Assert.That(conflict.GetProperty("entry").GetString(), Is.EqualTo("3"));
        Assert.That(conflict.GetProperty("winner").GetString(), Is.EqualTo("fef-mod"));
        Assert.That(conflict.GetProperty("rules").EnumerateArray().Select(r => r.GetString()), Is.EqualTo(new[] { "mirror", AfsRule }));

        var text = CliRun.Run("build", "--game", Game, "--mod", Hd, "--mod", Fef, "--no-cache");
        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        var lines = Lines(text.Out);
        Assert.That(lines, Does.Contain($"  conflict   entry 3: hd-textures (mirror), fef-mod ({AfsRule}) -> fef-mod wins"), text.Out);
        Assert.That(lines, Does.Contain($"  rules      {AfsRule} 2 entries, mirror 2 entries"), text.Out);
        Assert.That(lines, Does.Contain("data/readme.txt  (whole file from fef-mod, rule Redirector)"), text.Out);
    }

    [Test]
    public void Cat_FefModdedEntries_AreTheModFiles_ReadByAnIndependentReader()
    {
        var output = _dir["textures.afs"];
        var result = CliRun.Run("cat", "--game", Game, "--mod", Fef, "--no-cache", "data/textures.afs", "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var entries = AfsIndependentReader.Read(output);
        var original = AfsIndependentReader.Read(Path.Combine(Game, "data/textures.afs"));
        string Sha(string file) => AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(Fef, "FEmulator/AFS/textures.afs", file)));
        Assert.That(entries[2].Sha256, Is.EqualTo(Sha("2_fef_sky.dds")));
        Assert.That(entries[3].Sha256, Is.EqualTo(Sha("3.dds")));
        Assert.That(entries.Where(e => e.Index is not (2 or 3)).Select(e => e.Sha256),
            Is.EqualTo(original.Where(e => e.Index is not (2 or 3)).Select(e => e.Sha256)));
    }

    [Test]
    public void Cat_RedirectorFileIsServedWhole_AndTheModsMetadataIsNoGameFile()
    {
        var readme = CliRun.Run("cat", "--game", Game, "--mod", Fef, "--no-cache", "data/readme.txt", "-o", _dir["readme.txt"]);
        Assert.That(readme.ExitCode, Is.Zero, readme.ToString());
        Assert.That(File.ReadAllBytes(_dir["readme.txt"]), Is.EqualTo(File.ReadAllBytes(Path.Combine(Fef, "Redirector", "data", "readme.txt"))));

        var config = CliRun.Run("cat", "--game", Game, "--mod", Fef, "--no-cache", "ModConfig.json", "-o", _dir["config.json"]);
        Assert.That(config.ExitCode, Is.Not.Zero, config.ToString());
        Assert.That(config.Error, Does.Contain("not found"), config.ToString());
    }

    [Test]
    public void Ls_FefMod_ShowsEachEntrysRule_InTextAndJson()
    {
        var text = CliRun.Run("ls", "--game", Game, "--mod", Fef, "--no-cache", "data/textures.afs");
        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        var lines = Lines(text.Out);
        Assert.That(lines[1], Does.Contain("origin            rule                          name"), text.Out);
        Assert.That(lines[4], Does.Contain($"replaced  fef-mod           {AfsRule}"), text.Out);
        Assert.That(lines[2], Does.Contain("original  original          -  "), text.Out);

        var json = CliRun.Run("ls", "--game", Game, "--mod", Fef, "--no-cache", "data/textures.afs", "--json");
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        var rules = doc.RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => e.GetProperty("rule").ValueKind == JsonValueKind.Null ? null : e.GetProperty("rule").GetString()).ToArray();
        Assert.That(rules[2..4], Is.EqualTo(new[] { AfsRule, AfsRule }));
        Assert.That(rules[0], Is.Null);
    }
}
