using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Reads a mod's <c>CRIFsV2Hook/CPK/</c> folder by CRI FileSystem V2 Hook's published convention (docs/DESIGN.md, "Reloaded-II and
/// FEF mods"): each folder in it, named as the modder likes, holds files at their path inside the game's CPKs. A file replaces
/// that path in every named CPK of the game that holds it (letter case aside, through an entry that holds an archive as in a
/// mirror mod); a path no CPK holds is added to the CPK the folder is named after (<c>EN.CPK/</c> or <c>EN/</c>), else a
/// warning. The hook has no deletion. The game's CPKs are listed and their indexes read once per
/// <see cref="ModRouter.WalkMods"/> (<see cref="GameCpks"/>), and only when a mod has such a folder.
/// </summary>
/// <param name="cpks">The game's CPKs.</param>
/// <param name="claimByName">The entry a file of that name is merged into wherever it lies (<see cref="RouteMerges.ClaimByName"/>), or null.</param>
internal sealed class CriFsRoutes(GameCpks cpks, Func<string, MergeClaim?> claimByName)
{
    /// <summary>
    /// The mod folders the hook probes, in its order (CriFs.V2.Hook <c>ReloadedBindBuilderCreator</c>: <c>CRIFsV2Hook/CPK</c>, then the
    /// legacy <c>P5REssentials/CPK</c> Persona Essentials documents, then those mods add through its API: Metaphor Essentials'
    /// <c>MFEssentials/CPK</c>, <c>AddProbingPath</c> in its <c>Mod.cs</c>); it binds the last file a path gets, so within one mod the
    /// later wins. Every game reads all three: the hook probes its two everywhere, and only Metaphor mods hold the third.
    /// </summary>
    public static readonly string[] ProbingOrder = ["CRIFsV2Hook", "P5REssentials", "MFEssentials"];

    // Every folder of one probing path is as specific as another (two of one mod giving one entry are ambiguous); a later probing
    // path is more specific; all are less than Redirector/.
    private static int SpecificityOf(string layout) => int.MaxValue - ProbingOrder.Length + Array.IndexOf(ProbingOrder, layout);

    /// <summary>
    /// Adds the entries of one mod's CPK layout folder (<paramref name="layout"/>, one of <see cref="ProbingOrder"/>), its files
    /// that <paramref name="applies"/> keeps; <paramref name="archiveAt"/> gives a game archive's changes.
    /// </summary>
    public void Add(string modRoot, string modName, string layoutFolder, string layout, Func<string, bool> applies,
        Func<string, IArchiveFormat, ArchiveChanges> archiveAt, List<string> warnings)
    {
        foreach (var (path, isFolder) in GamePaths.EntriesInside(modRoot, layoutFolder))
        {
            if (isFolder && Path.GetFileName(path).Equals("CPK", StringComparison.OrdinalIgnoreCase))
                AddCpkFolder(modRoot, modName, path, $"{layout}/CPK", SpecificityOf(layout), applies, archiveAt, warnings);
            else
                warnings.Add($"{path}: ArchiveEmu reads {layout}/CPK only; this {(isFolder ? "folder" : "file")} is not used");
        }
    }

    private void AddCpkFolder(string modRoot, string modName, string cpkFolder, string rule, int specificity, Func<string, bool> applies,
        Func<string, IArchiveFormat, ArchiveChanges> archiveAt, List<string> warnings)
    {
        foreach (var (folder, isFolder) in GamePaths.EntriesInside(modRoot, cpkFolder))
        {
            if (!isFolder)
            {
                warnings.Add($"{folder}: CRI FileSystem V2 Hook reads files in a folder of {rule}/ ({rule}/<any name>/<path in the CPK>); this file is not used");
                continue;
            }
            string name = Path.GetFileName(folder);
            var unplaced = new List<string>();
            foreach (var file in GamePaths.FilesInside(modRoot, folder).Where(applies))
            {
                string inner = Path.GetRelativePath(folder, file).Replace(Path.DirectorySeparatorChar, '/');
                bool mergedByName = NoteByName(modName, inner, file, archiveAt);
                var targets = cpks.All.Where(c => c.Holds(inner)).ToList();
                if (targets.Count == 0)
                    targets = cpks.All.Where(c => c.NamedAs(name)).ToList();
                if (targets.Count == 0 && !mergedByName)
                    unplaced.Add(inner);
                // The hook binds the file by its path, with no deletion: x.del is a file named so, as in FEF's naming.
                foreach (var cpk in targets)
                    archiveAt(cpk.Relative, cpk.Format).AddPath(modRoot, modName, inner, file, $"{rule}/{name}", specificity, EntryFileName.ParseFef);
            }
            if (unplaced.Count > 0)
                warnings.Add($"mod folder {folder} ({rule}/{name}): {unplaced.Count} file(s) at paths no CPK of the game holds, and no named CPK of "
                    + $"the game is called {name}, so they are not used ({string.Join(", ", unplaced.Take(3))}{(unplaced.Count > 3 ? ", …" : "")})");
        }
    }

    /// <summary>
    /// A file a merge finds by its name anywhere under the probing folder (P5R's bust-up parameters), noted for the entry it is
    /// merged into in every CPK holding that entry; at the entry's own path the ordinary route notes it. Whether one was noted.
    /// </summary>
    private bool NoteByName(string modName, string inner, string file, Func<string, IArchiveFormat, ArchiveChanges> archiveAt)
    {
        if (claimByName(Path.GetFileName(inner)) is not { } claim)
            return false;
        if (!string.Equals(inner, claim.Path, StringComparison.OrdinalIgnoreCase))
            foreach (var cpk in cpks.All.Where(c => c.Holds(claim.Path)))
                archiveAt(cpk.Relative, cpk.Format).NoteForMerge(claim.Path, modName, file);
        return true;
    }
}
