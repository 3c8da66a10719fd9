using System.Text;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Machine.ReloadedII;

namespace ArchiveEmu.Fuzz;

/// <summary>
/// The Reloaded-II readers (issue 48): <c>modconfig</c> reads one ModConfig.json every way ArchiveEmu does (the mod, the mods folder,
/// the mod's layout, a load order over the ids it names); <c>reloadedsetup</c> reads a whole setup with one of its files from the input.
/// Documented for one file: <see cref="ReloadedJson.NotJson"/>, <see cref="InvalidDataException"/>, <see cref="IOException"/>. The
/// readers of many files (<see cref="ReloadedJson.ReadEach"/>), the layout and the load order never throw: a bad file is one line.
/// </summary>
internal static class ReloadedReaders
{
    private const string ModJson = """
        {
          "ModId": "fuzz.mod",
          "ModName": "Fuzz Mod",
          "ModVersion": "1.2.0",
          "ModDll": "Fuzz.dll",
          "ModIcon": "Icons/Preview.png",
          "IsUniversalMod": false,
          "SupportedAppId": ["game.exe"],
          "ModDependencies": ["dep.a", "DEP.B", "fuzz.mod"]
        }
        """;

    // The app's program is found relative to its AppConfig.json, so the seed works wherever the scratch folder is.
    private const string AppJson = """
        {
          "AppId": "game.exe",
          "AppName": "Fuzz Game",
          "AppLocation": "..\\..\\game\\Game.exe",
          "EnabledMods": ["fuzz.mod", "dep.a", "not.installed"]
        }
        """;

    // %ROOT% becomes the setup's folder (below): the loader's folders are absolute paths.
    private const string LoaderJson = """
        {
          "LauncherPath": "Z:\\nowhere\\Reloaded-II.exe",
          "ApplicationConfigDirectory": "%ROOT%/Apps",
          "ModConfigDirectory": "%ROOT%/Mods",
          "EnabledPlugins": ["a", "b"]
        }
        """;

    private static readonly string[] SetupFiles = ["AppConfig.json", "ReloadedII.json", "ModConfig.json"];

    public static IReadOnlyList<(string Name, byte[] Bytes)> ModConfigSeeds() => [.. JsonSeeds.Variants("ModConfig.json", ModJson, "ModDependencies")];

    /// <summary>reloadedsetup's input: a byte choosing the file (<see cref="SetupFiles"/>, modulo), then the file.</summary>
    public static IReadOnlyList<(string Name, byte[] Bytes)> SetupSeeds() =>
    [
        .. JsonSeeds.Variants("AppConfig.json", AppJson, "EnabledMods").Select(s => (s.Name, (byte[])[0, .. s.Bytes])),
        .. JsonSeeds.Variants("ReloadedII.json", LoaderJson, "EnabledPlugins").Select(s => (s.Name, (byte[])[1, .. s.Bytes])),
        .. JsonSeeds.Variants("ModConfig.json in a setup", ModJson, "ModDependencies").Select(s => (s.Name, (byte[])[2, .. s.Bytes])),
    ];

    public static void ModConfig(byte[] bytes, string scratch)
    {
        var mods = Path.Combine(scratch, "modconfig", "Mods");
        var folder = Path.Combine(mods, "fuzz");
        Directory.CreateDirectory(folder);
        var file = Path.Combine(folder, ReloadedModConfigs.FileName);
        ScratchFile.Write(file, bytes);

        ReloadedMod? mod = null;
        try
        {
            mod = ReloadedModConfigs.Read(file);
        }
        catch (Exception e) when (e is InvalidDataException or IOException) // NotJson is an IOException
        {
        }

        var problems = new List<string>();
        var all = ReloadedModConfigs.ReadAll(mods, problems);
        if (all.Count != (mod is null ? 0 : 1) || problems.Count != (mod is null ? 1 : 0))
            throw new FuzzFindingException($"modconfig: ReadAll gave {all.Count} mods and {problems.Count} problems, Read {(mod is null ? "refused" : "read")} the file");

        _ = ReloadedModLayout.Read(folder); // a bad ModConfig.json is its Warning, never an exception
        if (mod is not null)
            LoadOrderOf(mod);
    }

    // A hostile graph from the ids the file names: the mod, and one mod per dependency depending on all of them backwards and on
    // the mod (every cycle there is); everything named is enabled. Ids once ignoring case, as ReloadedSetup keeps them.
    private static void LoadOrderOf(ReloadedMod mod)
    {
        var installed = new List<ReloadedMod> { mod };
        var ids = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { mod.Id };
        string[] backwards = [.. mod.Dependencies.Reverse(), mod.Id];
        foreach (var id in mod.Dependencies.Where(ids.Add))
            installed.Add(mod with { Id = id, Name = id, Dependencies = backwards });
        var order = ReloadedLoadOrder.Of([mod.Id, .. mod.Dependencies, .. mod.SupportedAppIds], installed);
        if (order.Mods.Select(m => m.Mod).Distinct().Count() != order.Mods.Count)
            throw new FuzzFindingException("modconfig: the load order lists a mod twice");
    }

    public static void Setup(byte[] bytes, string scratch)
    {
        if (bytes.Length == 0)
            return;
        var root = Path.Combine(scratch, "reloadedsetup");
        var game = Path.Combine(root, "game");
        var apps = Path.Combine(root, "Apps");
        var mods = Path.Combine(root, "Mods");
        string chosen = SetupFiles[bytes[0] % SetupFiles.Length];
        byte[] Contents(string name, string json) => name == chosen ? bytes[1..]
            : Encoding.UTF8.GetBytes(json.Replace("%ROOT%", root.Replace('\\', '/')));

        // The folder is reused: the files the input can change are written for every input, the others once.
        if (!Directory.Exists(game))
        {
            Write(Path.Combine(game, "Game.exe"), [0x4D, 0x5A]);
            Write(Path.Combine(mods, "fuzz", "Redirector", "data.bin"), [1]);
            Write(Path.Combine(mods, "a", "ModConfig.json"), Encoding.UTF8.GetBytes("""{"ModId": "dep.a", "ModDependencies": ["dep.b", "fuzz.mod"]}"""));
            Write(Path.Combine(mods, "a", "FEmulator", "AFS", "x.afs", "0.bin"), [2]);
            Write(Path.Combine(mods, "b", "ModConfig.json"), Encoding.UTF8.GetBytes("""{"ModId": "dep.b", "ModDependencies": ["dep.a"]}"""));
        }
        Write(Path.Combine(apps, "game.exe", "AppConfig.json"), Contents("AppConfig.json", AppJson));
        var loader = Path.Combine(root, ReloadedFolders.LoaderConfigName);
        if (chosen == ReloadedFolders.LoaderConfigName)
            Write(loader, Contents(chosen, LoaderJson));
        else
            File.Delete(loader); // Apps/ and Mods/ beside it: a portable setup
        Write(Path.Combine(mods, "fuzz", "ModConfig.json"), Contents("ModConfig.json", ModJson));

        // The reader of the chosen file's folder takes a bad file as a problem line, never an exception.
        var problems = new List<string>();
        if (chosen == "AppConfig.json")
            _ = ReloadedApps.ReadAll(apps, null, problems);
        else if (chosen == "ModConfig.json")
            _ = ReloadedModConfigs.ReadAll(mods, problems);

        try
        {
            var setup = ReloadedSetup.Read(game, new ReloadedLocation(root, null, "fuzz"));
            _ = setup.ReportLines().Count();
        }
        catch (Exception e) when (e is InvalidDataException or IOException) // no setup, or no app for the game: naming the file
        {
        }
    }

    private static void Write(string path, byte[] bytes)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        ScratchFile.Write(path, bytes);
    }
}
