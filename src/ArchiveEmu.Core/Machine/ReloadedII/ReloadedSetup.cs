using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>A mod of the setup ArchiveEmu serves, in priority order (a later one wins a file, as the later loaded wins in Reloaded-II).</summary>
/// <param name="NeededBy">When the mod is not enabled but loaded because this mod depends on it.</param>
internal sealed record TakenMod(ReloadedMod Mod, string? NeededBy);

/// <summary>A mod of the setup ArchiveEmu does not serve, and why.</summary>
internal sealed record SkippedMod(string Id, string Title, string? Folder, string Reason);

/// <summary>
/// A player's Reloaded-II setup read as it is (docs/RELOADED-II.md): the app that runs a program of the game folder, its enabled
/// mods in Reloaded-II's load order with their dependencies (<see cref="ReloadedLoadOrder"/>), and which of them ArchiveEmu serves:
/// those with a folder it reads (<see cref="ReloadedModLayout.FileLayouts"/>); the others are skipped with the reason.
/// </summary>
internal sealed class ReloadedSetup
{
    private ReloadedSetup(ReloadedLocation location, ReloadedFolders folders, ReloadedApp app, ReloadedLoadOrder order,
        List<TakenMod> taken, List<SkippedMod> skipped, List<string> warnings, int otherApps)
    {
        Location = location;
        Folders = folders;
        App = app;
        LoadOrder = order;
        Taken = taken;
        Skipped = skipped;
        Warnings = warnings;
        OtherAppsMods = otherApps;
    }

    public ReloadedLocation Location { get; }
    public ReloadedFolders Folders { get; }
    public ReloadedApp App { get; }

    /// <summary>Every mod Reloaded-II itself would load for the app, code mods included.</summary>
    public ReloadedLoadOrder LoadOrder { get; }

    public IReadOnlyList<TakenMod> Taken { get; }
    public IReadOnlyList<SkippedMod> Skipped { get; }

    /// <summary>What the player should fix: a missing dependency, an enabled mod not installed, a file Reloaded-II cannot read.</summary>
    public IReadOnlyList<string> Warnings { get; }

    /// <summary>Installed mods for other apps, not listed.</summary>
    public int OtherAppsMods { get; }

    /// <summary>The mod folders ArchiveEmu serves, lowest priority first.</summary>
    public string[] ModFolders => [.. Taken.Select(t => t.Mod.Folder)];

    /// <summary>
    /// The folders of the loaded mods ArchiveEmu serves no file of (code only: frameworks such as a merging mod), in load order:
    /// an entry merge may apply only while one is loaded (<c>GameSetup.OtherLoadedMods</c>).
    /// </summary>
    public string[] OtherLoadedFolders => [.. LoadOrder.Mods.Select(m => m.Mod).Except(Taken.Select(t => t.Mod)).Select(m => m.Folder)];

    /// <summary>The loaded mods with code (<c>ModDll</c>…): they work only with Reloaded-II inside the game.</summary>
    public IEnumerable<ReloadedMod> CodeMods => LoadOrder.Mods.Select(m => m.Mod).Where(m => m.Code is not null);

    /// <summary>Reads the setup at <paramref name="location"/> for <paramref name="gameFolder"/>; an <see cref="IOException"/> or
    /// <see cref="InvalidDataException"/> naming the file when there is no setup or no app for the game.</summary>
    public static ReloadedSetup Read(string gameFolder, ReloadedLocation location)
    {
        var folders = ReloadedFolders.Of(location);
        var warnings = new List<string>();
        var apps = ReloadedApps.ReadAll(folders.Apps, location.Prefix, warnings);
        var app = ReloadedApps.ForGame(apps, gameFolder, folders.Apps, warnings);
        var all = ReloadedModConfigs.ReadAll(folders.Mods, warnings);
        var skipped = new List<SkippedMod>();

        // The same ModId twice: Reloaded-II's dictionaries keep the last one listed.
        var installed = new List<ReloadedMod>();
        foreach (var group in all.GroupBy(m => m.Id, StringComparer.OrdinalIgnoreCase))
        {
            installed.Add(group.Last());
            skipped.AddRange(group.SkipLast(1).Select(m => new SkippedMod(m.Id, m.Title, m.Folder, $"same ModId as {group.Last().Folder}, which Reloaded-II uses")));
        }
        installed = [.. all.Where(installed.Contains)];

        var order = ReloadedLoadOrder.Of(app.EnabledMods, installed);
        foreach (var id in order.EnabledNotInstalled)
        {
            skipped.Add(new SkippedMod(id, id, null, $"enabled but not installed (no {ReloadedModConfigs.FileName} with this ModId under {folders.Mods})"));
            warnings.Add($"{app.Config}: enables {id}, which is not installed under {folders.Mods}");
        }
        foreach (var (dependency, neededBy) in order.MissingDependencies)
            warnings.Add($"{neededBy} needs {dependency}, which is not installed under {folders.Mods}; Reloaded-II itself refuses to load any mod until it is");

        var taken = new List<TakenMod>();
        foreach (var loaded in order.Mods)
        {
            var layout = ReloadedModLayout.Read(loaded.Mod.Folder);
            if (ReloadedModLayout.FileLayouts.Any(name => layout.Layout(name) is not null))
                taken.Add(new TakenMod(loaded.Mod, loaded.NeededBy));
            else
                skipped.Add(new SkippedMod(loaded.Mod.Id, loaded.Mod.Title, loaded.Mod.Folder, loaded.Mod.Code is { } code
                    ? $"code only ({code}): it needs Reloaded-II inside the game; no folder ArchiveEmu serves"
                    : $"no file ArchiveEmu can serve (no {string.Join("/, ", ReloadedModLayout.FileLayouts)}/ folder)"));
        }

        var loadedSet = order.Mods.Select(m => m.Mod).ToHashSet();
        var forApp = installed.Where(m => !loadedSet.Contains(m)).ToList();
        var disabled = forApp.Where(m => m.IsUniversal || m.SupportedAppIds.Contains(app.Id, StringComparer.OrdinalIgnoreCase)).ToList();
        skipped.AddRange(disabled.Select(m => new SkippedMod(m.Id, m.Title, m.Folder, "disabled in Reloaded-II")));
        return new ReloadedSetup(location, folders, app, order, taken, skipped, warnings, forApp.Count - disabled.Count);
    }

    /// <summary>What <c>build</c> prints about the setup, one line each: where it is, the app, each mod taken in order, each skipped.</summary>
    public IEnumerable<string> ReportLines()
    {
        yield return $"reloaded   {Location.Folder} ({Location.HowFound})";
        yield return $"reloaded   app {App.Id}{(App.Name.Length > 0 ? $" ({App.Name})" : "")}: {App.Location}{(App.MappedLocation != App.Location ? $" -> {App.MappedLocation}" : "")}";
        yield return $"reloaded   mods {Folders.Mods}";
        for (int i = 0; i < Taken.Count; i++)
            yield return $"mod {i + 1,-6} {Taken[i].Mod.Title}  {Taken[i].Mod.Folder}{(Taken[i].NeededBy is { } by ? $"  (not enabled: a dependency of {by})" : "")}"
                + (Taken[i].Mod.Code is { } code ? $"  (its code, {code}, needs Reloaded-II inside the game)" : "");
        foreach (var s in Skipped)
            yield return $"skipped    {s.Title}{(s.Folder is null ? "" : $" ({s.Folder})")}: {s.Reason}";
        if (OtherAppsMods > 0)
            yield return $"reloaded   {OtherAppsMods} installed {(OtherAppsMods == 1 ? "mod" : "mods")} for other apps not listed";
    }

    /// <summary>
    /// The line to warn with when file mods ArchiveEmu serves are also loaded by Reloaded-II with a code mod that reads their folders
    /// (FileEmulationFramework, Persona Essentials, CRI FileSystem V2 Hook, Reloaded-II's redirector): if Reloaded-II is injected in the
    /// game, their files are applied a second time over what ArchiveEmu serves (docs/RELOADED-II.md, "Applied twice"). Null when none.
    /// </summary>
    public string? DoubleApplicationWarning(IEnumerable<string> servedMods, string gameFolder) =>
        DoubleApplication.Warning(this, servedMods, gameFolder);
}
