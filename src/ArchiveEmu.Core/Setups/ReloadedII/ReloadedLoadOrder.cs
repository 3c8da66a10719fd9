namespace ArchiveEmu.Core.Setups.ReloadedII;

/// <summary>A mod Reloaded-II loads for the app: enabled, or loaded only because <see cref="NeededBy"/> depends on it.</summary>
internal sealed record LoadedMod(ReloadedMod Mod, bool Enabled, string? NeededBy);

/// <summary>
/// Reloaded-II's load order for an app (Reloaded.Mod.Loader <c>Loader.LoadForAppConfig</c>, <c>LoadModsWithDependencies</c>,
/// Reloaded.Mod.Loader.IO <c>ModConfig.GetDependencies</c> and <c>SortMods</c>): the enabled mods top to bottom, every mod they
/// depend on loaded too (recursively, enabled or not), then a depth-first sort that puts each mod's dependencies, in their listed
/// order, just before it. Enabled ids match a ModId exactly; dependencies match ignoring letter case; optional dependencies are ignored.
/// </summary>
internal sealed class ReloadedLoadOrder
{
    private ReloadedLoadOrder(List<LoadedMod> mods, List<string> notInstalled, List<(string Dependency, string NeededBy)> missing)
    {
        Mods = mods;
        EnabledNotInstalled = notInstalled;
        MissingDependencies = missing;
    }

    /// <summary>The mods in load order: a later mod wins a file over an earlier one.</summary>
    public IReadOnlyList<LoadedMod> Mods { get; }

    /// <summary>Ids in EnabledMods that no installed mod has (Reloaded-II passes over them).</summary>
    public IReadOnlyList<string> EnabledNotInstalled { get; }

    /// <summary>Dependencies no installed mod provides, each with the mod that needs it (Reloaded-II then refuses to load any mod).</summary>
    public IReadOnlyList<(string Dependency, string NeededBy)> MissingDependencies { get; }

    /// <param name="installed">Every installed mod, one per ModId (<see cref="ReloadedSetup"/> drops duplicates first).</param>
    public static ReloadedLoadOrder Of(IReadOnlyList<string> enabledMods, IReadOnlyList<ReloadedMod> installed)
    {
        var exact = installed.ToDictionary(m => m.Id, StringComparer.Ordinal);
        var anyCase = new Dictionary<string, ReloadedMod>(StringComparer.OrdinalIgnoreCase);
        foreach (var mod in installed)
            anyCase[mod.Id] = mod; // as Reloaded-II's dictionary: the last one listed
        var enabled = new List<ReloadedMod>();
        var notInstalled = new List<string>();
        foreach (var id in enabledMods)
        {
            if (exact.TryGetValue(id, out var mod))
            {
                if (!enabled.Contains(mod))
                    enabled.Add(mod);
            }
            else
                notInstalled.Add(id);
        }

        var sorted = new List<LoadedMod>();
        var state = new Dictionary<ReloadedMod, bool>(); // false: being visited (a cycle stops there), true: placed
        var missing = new List<(string, string)>();
        void Visit(ReloadedMod mod, string? neededBy)
        {
            if (state.ContainsKey(mod))
                return;
            state[mod] = false;
            foreach (var id in mod.Dependencies)
            {
                if (anyCase.TryGetValue(id, out var dependency))
                    Visit(dependency, mod.Name);
                else if (!missing.Contains((id, mod.Name)))
                    missing.Add((id, mod.Name));
            }
            state[mod] = true;
            bool isEnabled = enabled.Contains(mod);
            sorted.Add(new LoadedMod(mod, isEnabled, isEnabled ? null : neededBy));
        }
        foreach (var mod in enabled)
            Visit(mod, null);
        return new ReloadedLoadOrder(sorted, notInstalled, missing);
    }
}
