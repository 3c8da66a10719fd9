namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>A mod Reloaded-II loads for the app: enabled, or loaded only because <see cref="NeededBy"/> depends on it.</summary>
internal sealed record LoadedMod(ReloadedMod Mod, bool Enabled, string? NeededBy);

/// <summary>
/// Reloaded-II's load order for an app (Reloaded.Mod.Loader <c>Loader.LoadForAppConfig</c>, <c>LoadModsWithDependencies</c>,
/// Reloaded.Mod.Loader.IO <c>ModConfig.GetDependencies</c> and <c>SortMods</c>): the enabled mods top to bottom, every mod they
/// depend on loaded too (recursively, enabled or not), then a depth-first sort that puts each mod's dependencies, in their listed
/// order, just before it (Reloaded-II recurses; this loops, with the same order: ReloadedLoadOrderTests). Enabled ids match a ModId exactly; dependencies match ignoring letter case; optional dependencies are ignored.
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
        var enabledSet = new HashSet<ReloadedMod>();
        var notInstalled = new List<string>();
        foreach (var id in enabledMods)
        {
            if (exact.TryGetValue(id, out var mod))
            {
                if (enabledSet.Add(mod))
                    enabled.Add(mod);
            }
            else
                notInstalled.Add(id);
        }

        // Depth first, each mod's dependencies in their listed order before it, with a stack of its own: a chain of 100,000
        // dependencies overflowed the thread's stack when this recursed. A mod met again (a cycle, or placed) is passed over.
        var sorted = new List<LoadedMod>();
        var met = new HashSet<ReloadedMod>();
        var missing = new List<(string, string)>();
        var missingSeen = new HashSet<(string, string)>();
        var stack = new Stack<(ReloadedMod Mod, string? NeededBy, int Next)>();
        foreach (var root in enabled)
        {
            if (!met.Add(root))
                continue;
            stack.Push((root, null, 0));
            while (stack.TryPop(out var visit))
            {
                var (mod, neededBy, next) = visit;
                if (next < mod.Dependencies.Count)
                {
                    stack.Push((mod, neededBy, next + 1)); // back to this mod after its next dependency
                    var id = mod.Dependencies[next];
                    if (anyCase.TryGetValue(id, out var dependency))
                    {
                        if (met.Add(dependency))
                            stack.Push((dependency, mod.Name, 0));
                    }
                    else if (missingSeen.Add((id, mod.Name)))
                        missing.Add((id, mod.Name));
                    continue;
                }
                bool isEnabled = enabledSet.Contains(mod);
                sorted.Add(new LoadedMod(mod, isEnabled, isEnabled ? null : neededBy));
            }
        }
        return new ReloadedLoadOrder(sorted, notInstalled, missing);
    }
}
