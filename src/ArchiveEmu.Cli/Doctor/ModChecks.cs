using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// The mods as the mount would read them: one line per mod from the route plan's own report (<see cref="RoutePlan.ModReports"/>,
/// what <c>build</c> prints), the warnings about the set, and which mods carry code (<c>ModDll</c>, …) that only Reloaded-II runs.
/// </summary>
internal static class ModChecks
{
    public static IEnumerable<DoctorCheck> Run(RoutePlan plan, IReadOnlyList<string> warnings)
    {
        if (plan.ModReports.Count == 0)
            yield return DoctorCheck.Fact("mods", "none given: the game would be served as it is");
        foreach (var mod in plan.ModReports)
            yield return Mod(mod);
        if (warnings.Count > 0)
            yield return DoctorCheck.Warning("mod warnings", string.Join("; ", warnings), "read each warning: a misspelled folder or a mod given twice is the usual cause");
        if (plan.ModReports.Count > 0)
            yield return CodeMods(plan.ModReports);
        if (MergedFiles(plan) is { } merged)
            yield return merged;
    }

    /// <summary>
    /// The files served merged from several mods' (Persona's and Metaphor's tables, P5R's bust-up parameters: docs/TABLES.md), each
    /// with its mods and how many of its fields or entries two mods changed, the later winning; null when none is. A fact: build and
    /// ls give the fields.
    /// </summary>
    internal static DoctorCheck? MergedFiles(RoutePlan plan)
    {
        var merged = MergedEntryReports.Of(plan).ToList();
        if (merged.Count == 0)
            return null;
        return DoctorCheck.Fact("merged files", $"{merged.Count} served merged from the mods' copies: " + string.Join("; ", merged.Select(m =>
            $"{m.Path} ({string.Join(", ", m.Report.Mods.Select(c => c.Mod))}"
            + (m.Report.Conflicts.Count == 0 ? "" : $"; {m.Report.Conflicts.Count} changed by two or more, the later mod's kept")
            + (m.Report.NotApplied.Count == 0 ? "" : $"; {m.Report.NotApplied.Count} not applied, build says why") + ")")));
    }

    /// <summary>Whether a mod reaches the game, through which of its folders, and what of it does not (with why).</summary>
    internal static DoctorCheck Mod(ModReport mod)
    {
        var name = $"mod {mod.Mod}";
        var layout = mod.Layout == ModReport.MirrorLayout ? "mirrors the game folder" : $"{mod.Layout} layout, reads {string.Join(", ", mod.Applied)}";
        var loud = mod.NotApplied.Where(n => !n.Quiet).ToArray();
        if (mod.AppliesNothing)
            return DoctorCheck.Warning(name, $"{mod.Root}: nothing of it reaches the game" + (loud.Length > 0 ? $" ({string.Join("; ", loud.Select(n => n.Line))})" : ""),
                "check that it is the mod's own folder (the one holding ModConfig.json) and that its files are ones ArchiveEmu serves (docs/DOCTOR.md)");
        if (loud.Length > 0)
            return DoctorCheck.Warning(name, $"{mod.Root}: {layout}; not applied: {string.Join("; ", loud.Select(n => n.Line))}",
                "those files need code inside the game (Reloaded-II) or are misplaced; the rest of the mod is served");
        return DoctorCheck.Passed(name, $"{mod.Root}: {layout}", blocking: false);
    }

    /// <summary>Mods whose ModConfig.json names DLLs (<see cref="ReloadedModLayout.Code"/>): their code runs only inside the game, under Reloaded-II.</summary>
    internal static DoctorCheck CodeMods(IEnumerable<ModReport> mods)
    {
        var code = mods.Select(m => (m.Mod, ReloadedModLayout.Read(m.Root).Code)).Where(m => m.Code.Count > 0).ToArray();
        if (code.Length == 0)
            return DoctorCheck.Passed("code mods", "none: every mod is files only, which ArchiveEmu serves without Reloaded-II", blocking: false);
        return DoctorCheck.Warning("code mods", $"{code.Length} mod(s) carry code that only Reloaded-II runs inside the game: "
            + string.Join(", ", code.Select(m => $"{m.Mod} ({string.Join(", ", m.Code)})")),
            "ArchiveEmu serves their files; for their code, start the game through Reloaded-II too (docs/DOCTOR.md says what to watch for)");
    }
}
