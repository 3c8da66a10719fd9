using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core;

/// <summary>
/// The one place the public <see cref="ModSetReport"/> is made from what routing resolved (the plan's mod reports, merged tables,
/// warnings and conflicts, and the language), so the library reports what <c>build</c> prints from the same records.
/// </summary>
internal static class ModSetReports
{
    public static ModSetReport Of(RoutePlan plan, LanguageChoice language) => new(
        new ModSetLanguage(language.Id, language.Source),
        plan.ModReports.Select(Mod).ToArray(),
        MergedEntryReports.Of(plan).Select(t => Table(t.Path, t.Report)).ToArray(),
        plan.Warnings.ToArray(),
        plan.Conflicts.Select(c => new EntryConflict(c.Target, c.Entry, c.Mods.ToArray(), c.Winner, c.Rules.ToArray())).ToArray());

    private static ModFolderReport Mod(ModReport mod) => new(mod.Mod, mod.Root, Layout(mod), mod.Applied.ToArray(), mod.Languages.ToArray(),
        mod.NotApplied.Select(n => new FilesNotApplied(n.Folder, n.Files.ToArray(), n.Reason, n.Quiet)).ToArray());

    // A layout routing knows but the public enum does not is a mistake in this file, said at once rather than reported as another.
    private static ModFolderLayout Layout(ModReport mod) => mod.Layout switch
    {
        ModReport.MirrorLayout => ModFolderLayout.Mirror,
        ModReport.ReloadedLayout => ModFolderLayout.ReloadedII,
        _ => throw new InvalidOperationException($"{mod.Root}: layout '{mod.Layout}' has no {nameof(ModFolderLayout)}"),
    };

    // MergedEntryReports names a table "<the game folder's archive>/<its path from that archive's root>": split back into the two.
    private static MergedTableReport Table(string path, EntryMergeReport report) => new(path, path[..^(report.Path.Length + 1)], report.Path,
        report.Mods.Select(m => new MergedTableMod(m.Mod, m.Fields, m.FieldsWon)).ToArray(),
        report.Conflicts.Select(c => new MergedFieldConflict(c.Segment, c.Offset, c.Width, c.Mods.ToArray(), c.Winner)).ToArray(),
        report.NotApplied.ToArray());
}
