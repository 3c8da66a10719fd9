using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>
/// A file mod applied twice: ArchiveEmu serves it in the game folder, and Reloaded-II, injected in the game for code mods, loads it
/// too with the code mod that reads its folder, which then applies it again over the already modded file (docs/RELOADED-II.md).
/// </summary>
internal static class DoubleApplication
{
    /// <summary>The code mods that read a layout folder of other mods, by the ModIds their ModConfig.json publish (prefixes, letter case aside).</summary>
    private static readonly (string Folder, string[] Readers)[] Readers =
    [
        ("FEmulator", ["reloaded.universal.fileemulationframework"]),
        ("AfsRedirector", ["reloaded.universal.fileemulationframework.afs", "reloaded.universal.afsredirector"]),
        ("P5REssentials", ["p5rpc.modloader"]),
        ("MFEssentials", ["mrfpc.modloader"]),
        ("CRIFsV2Hook", ["crifs.v2.hook"]),
        ("Redirector", ["reloaded.universal.redirector"]),
    ];

    /// <summary>The file Reloaded-II's "Deploy ASI Loader" puts in a game folder so every start of the game loads Reloaded-II.</summary>
    public const string AsiBootstrapper = "Reloaded.Mod.Loader.Bootstrapper.asi";

    public static string? Warning(ReloadedSetup setup, IEnumerable<string> servedMods, string gameFolder)
    {
        var loaded = setup.LoadOrder.Mods.Select(m => m.Mod).ToList();
        var twice = new List<string>();
        var readers = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var served in servedMods)
        {
            var mod = loaded.FirstOrDefault(m => RealPaths.Same(RealPaths.Of(m.Folder), RealPaths.Of(served)));
            if (mod is null)
                continue;
            var layout = ReloadedModLayout.Read(mod.Folder);
            var readBy = Readers.Where(r => layout.Layout(r.Folder) is not null)
                .SelectMany(r => loaded.Where(m => r.Readers.Any(id => m.Id.StartsWith(id, StringComparison.OrdinalIgnoreCase))))
                .Select(m => m.Name).Distinct().ToList();
            if (readBy.Count == 0)
                continue;
            twice.Add(mod.Name);
            readers.UnionWith(readBy);
        }
        // Only when Reloaded-II is really in the game: with --reloaded every mod taken is enabled in it, so a warning on a
        // maybe said it on every command, to players who start the game without Reloaded-II (issue 48).
        if (twice.Count == 0 || FindBootstrapper(gameFolder) is not { } injected)
            return null;
        return $"Reloaded-II app {setup.App.Id} also loads {string.Join(", ", twice)} with {string.Join(", ", readers)}: "
            + $"Reloaded-II is injected in this game ({injected}), so "
            + "it applies their files a second time over what ArchiveEmu serves (an SPD's new textures appended twice); "
            + "disable them in Reloaded-II and give them with --mod, or start the game without Reloaded-II (docs/RELOADED-II.md)";
    }

    /// <summary>The ASI bootstrapper in the game folder or a folder one level down (scripts/, plugins/), or null.</summary>
    public static string? FindBootstrapper(string gameFolder)
    {
        if (!Directory.Exists(gameFolder))
            return null;
        var options = new EnumerationOptions { RecurseSubdirectories = true, MaxRecursionDepth = 1, MatchCasing = MatchCasing.CaseInsensitive, IgnoreInaccessible = true };
        return Directory.EnumerateFiles(gameFolder, AsiBootstrapper, options).Order(StringComparer.Ordinal).FirstOrDefault();
    }
}
