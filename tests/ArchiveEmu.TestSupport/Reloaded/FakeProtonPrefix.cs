using System.Text.Json;

namespace ArchiveEmu.TestSupport.Reloaded;

/// <summary>
/// A Reloaded-II setup as a Steam Deck player has it, written from Reloaded-II's published file formats (ReloadedII.json,
/// Apps/&lt;id&gt;/AppConfig.json, Mods/…/ModConfig.json): a Proton prefix <c>compatdata/&lt;appid&gt;/pfx</c> whose
/// <c>dosdevices/</c> maps <c>c:</c>, <c>z:</c> → <c>/</c> and <c>e:</c> → an "SD card" folder; Reloaded-II's configuration in the
/// prefix's AppData, its launcher, apps and mods on the SD card; the game in a Steam library <c>steamapps/common/&lt;name&gt;</c>.
/// </summary>
public sealed class FakeProtonPrefix
{
    public const string AppId = "1687950";

    public FakeProtonPrefix(string root, string gameName = "P5R")
    {
        Root = root;
        Library = Path.Combine(root, "library");
        Game = Path.Combine(Library, "steamapps", "common", gameName);
        CompatData = Path.Combine(Library, "steamapps", "compatdata", AppId);
        Prefix = Path.Combine(CompatData, "pfx");
        SdCard = Path.Combine(root, "sdcard");
        ConfigFolder = Path.Combine(Prefix, "drive_c", "users", "steamuser", "AppData", "Roaming", "Reloaded-Mod-Loader-II");
        Launcher = Path.Combine(SdCard, "Reloaded-II");
        Apps = Path.Combine(Launcher, "Apps");
        Mods = Path.Combine(Launcher, "Mods");
        foreach (var folder in new[] { Game, ConfigFolder, Apps, Mods, Path.Combine(Prefix, "dosdevices") })
            Directory.CreateDirectory(folder);
        File.CreateSymbolicLink(Path.Combine(Prefix, "dosdevices", "c:"), "../drive_c");
        File.CreateSymbolicLink(Path.Combine(Prefix, "dosdevices", "z:"), "/");
        File.CreateSymbolicLink(Path.Combine(Prefix, "dosdevices", "e:"), SdCard);
        File.WriteAllBytes(Path.Combine(Game, $"{gameName}.exe"), [0x4D, 0x5A]);
        WriteJson(Path.Combine(ConfigFolder, "ReloadedII.json"), new Dictionary<string, object>
        {
            ["LauncherPath"] = @"E:\Reloaded-II\Reloaded-II.exe",
            ["ApplicationConfigDirectory"] = @"E:\Reloaded-II\Apps",
            ["ModConfigDirectory"] = @"E:\Reloaded-II\Mods",
            ["ModUserConfigDirectory"] = @"E:\Reloaded-II\User\Mods",
        });
        File.WriteAllText(Path.Combine(Library, "steamapps", $"appmanifest_{AppId}.acf"),
            $"\"AppState\"\n{{\n\t\"appid\"\t\t\"{AppId}\"\n\t\"name\"\t\t\"Persona 5 Royal\"\n\t\"installdir\"\t\t\"{gameName}\"\n}}\n");
    }

    public string Root { get; }
    public string Library { get; }
    public string Game { get; }
    public string CompatData { get; }
    public string Prefix { get; }
    public string SdCard { get; }
    public string ConfigFolder { get; }
    public string Launcher { get; }
    public string Apps { get; }
    public string Mods { get; }

    /// <summary>A Linux path as Wine names it on drive Z: (<c>/home/x</c> → <c>Z:\home\x</c>).</summary>
    public static string OnZ(string path) => "Z:" + path.Replace('/', '\\');

    /// <summary>Writes Apps/&lt;id&gt;/AppConfig.json.</summary>
    public void App(string id, string appLocation, params string[] enabledMods) =>
        WriteJson(Path.Combine(Apps, id, "AppConfig.json"), new Dictionary<string, object>
        {
            ["AppId"] = id, ["AppName"] = "Persona 5 Royal", ["AppLocation"] = appLocation, ["EnabledMods"] = enabledMods,
        });

    /// <summary>Writes &lt;Mods&gt;/&lt;folder&gt;/ModConfig.json and returns the mod's folder.</summary>
    public string Mod(string folder, string id, string name, string version, string[]? dependencies = null, string? dll = null, string[]? supportedAppIds = null)
    {
        var full = Path.Combine(Mods, folder);
        var config = new Dictionary<string, object>
        {
            ["ModId"] = id, ["ModName"] = name, ["ModAuthor"] = "test", ["ModVersion"] = version, ["ModDescription"] = "",
            ["ModDll"] = dll ?? "", ["ModDependencies"] = dependencies ?? [], ["OptionalDependencies"] = Array.Empty<string>(),
            ["SupportedAppId"] = supportedAppIds ?? ["p5r.exe"], ["IsLibrary"] = false,
        };
        WriteJson(Path.Combine(full, "ModConfig.json"), config);
        return full;
    }

    /// <summary>Writes a file inside a mod folder (creating folders) and returns its path.</summary>
    public static string WriteFile(string mod, string relative, byte[] bytes)
    {
        var path = Path.Combine(mod, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, bytes);
        return path;
    }

    private static void WriteJson(string file, Dictionary<string, object> values)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(file)!);
        File.WriteAllText(file, JsonSerializer.Serialize(values, new JsonSerializerOptions { WriteIndented = true }));
    }
}
