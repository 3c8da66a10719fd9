using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>Issue 49: one reader of ModConfig.json for routing and for finding a player's mods; what each takes from it.</summary>
public sealed class ModConfigTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("modconfig");

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private ModConfig Read(string json) => ModConfig.Read(_dir.Write("ModConfig.json", System.Text.Encoding.UTF8.GetBytes(json)));

    [Test]
    public void TheFieldsArchiveEmuUses_AsWritten()
    {
        var config = Read("""
            { "ModId": "p5rpc.font", "ModName": "Font", "ModVersion": "2.1.0", "ModDependencies": ["a", 3, "b"], "SupportedAppId": ["p5r.exe"],
              "IsUniversalMod": true, "ModNativeDll64": "native/x64.dll", "moddll": "Font.dll", "ModIcon": "Icons/icon.png", "ReleaseMetadataFileName": "../up.json" }
            """);
        Assert.That((config.Id, config.Name, config.Version, config.IsUniversal, config.IsObject), Is.EqualTo(("p5rpc.font", "Font", "2.1.0", true, true)));
        Assert.That(config.Dependencies, Is.EqualTo(new[] { "a", "b" }), "strings only");
        Assert.That(config.SupportedAppIds, Is.EqualTo(new[] { "p5r.exe" }));
        Assert.That(config.Code, Is.EqualTo("native/x64.dll"), "ModDll is spelled moddll here: the id fields compare exactly, as Reloaded-II's");
        Assert.That(config.NamedFiles, Is.EqualTo(new[] { ("ModNativeDll64", "native/x64.dll"), ("moddll", "Font.dll"), ("ModIcon", "Icons/icon.png") }),
            "file fields ignore letter case; a path out of the mod names no file of it");
    }

    [TestCase("{}")]
    [TestCase("[ \"x.dll\" ]")]
    public void LeftOut_ReloadedIIsDefaults_AndNoFile(string json)
    {
        var config = Read(json);
        Assert.That((config.Id, config.Name, config.Version, config.Code), Is.EqualTo(("reloaded.template.modconfig", "Reloaded Mod Config Template", "1.0.0", (string?)null)));
        Assert.That(config.NamedFiles, Is.Empty);
        Assert.That(config.IsObject, Is.EqualTo(json == "{}"));
    }
}
