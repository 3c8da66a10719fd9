using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>One installed Reloaded-II mod: its <c>ModConfig.json</c> fields ArchiveEmu uses, and its folder.</summary>
internal sealed record ReloadedMod(string Id, string Name, string Version, string Folder, IReadOnlyList<string> Dependencies,
    IReadOnlyList<string> SupportedAppIds, bool IsUniversal, string? Code)
{
    /// <summary>"Name 1.2.0" as the report shows it.</summary>
    public string Title => $"{Name} {Version}";
}

/// <summary>
/// Every mod under Reloaded-II's mods folder, as Reloaded-II finds them (Reloaded.Mod.Loader.IO <c>ModConfig.GetAllMods</c>: every
/// <c>ModConfig.json</c> at least one folder down, at any depth, grouping folders allowed) and what could not be read.
/// </summary>
internal static class ReloadedModConfigs
{
    public const string FileName = ModConfig.FileName;

    /// <summary>The mods in the order Reloaded-II lists them (paths ignoring case, as on Windows), and one line per unreadable file.</summary>
    public static List<ReloadedMod> ReadAll(string modsFolder, List<string> problems)
    {
        var top = Path.TrimEndingDirectorySeparator(Path.GetFullPath(modsFolder));
        // Each real folder once (GameTree): a link loop (ln -s . Mods/loop) read every mod 40 times over, two loops hung.
        var files = GameTree.Files(top)
            .Where(f => f.Contains('/') && Path.GetFileName(f).Equals(FileName, StringComparison.OrdinalIgnoreCase)) // one in the mods folder itself is no mod
            .Select(f => GamePaths.Full(top, f))
            .Order(StringComparer.OrdinalIgnoreCase);
        var realTop = GamePaths.RealPath(top);
        return ReloadedJson.ReadEach(files.Where(file => LeadsOutOf(top, realTop, file, problems) is false), Read, "the mod", problems);
    }

    // A ModConfig.json, or the mod folder holding it, reached through a link that leads out of the Mods folder: skipped with one
    // line, as --mod refuses a link out of a mod (downloaded mods carry links). The Mods folder itself may be a link: players
    // keep it on another drive, so it is compared by its real path.
    private static bool LeadsOutOf(string top, string realTop, string file, List<string> problems)
    {
        var real = GamePaths.RealPath(file);
        if (real.StartsWith(realTop + Path.DirectorySeparatorChar, StringComparison.Ordinal))
            return false;
        problems.Add($"{file}: leads out of the Mods folder {top} (to {real}); the mod is skipped, as a link out of a mod folder is");
        return true;
    }

    /// <summary>The mod whose <c>ModConfig.json</c> is <paramref name="file"/> (<see cref="ModConfig.Read"/>: the one reader).</summary>
    public static ReloadedMod Read(string file)
    {
        var config = ModConfig.Read(file);
        if (!config.IsObject)
            throw new ReloadedJson.NotJson(file, "not a JSON object");
        return new ReloadedMod(config.Id, config.Name, config.Version, Path.GetDirectoryName(file)!, config.Dependencies, config.SupportedAppIds,
            config.IsUniversal, config.Code);
    }
}
