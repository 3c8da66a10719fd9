using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

internal sealed partial class ModRouter
{
    /// <summary>The walk's part for mods in Reloaded-II's layout (docs/DESIGN.md, "Reloaded-II and FEF mods").</summary>
    private sealed partial class Walker
    {
        private FefRoutes? _fef;
        private CriFsRoutes? _criFs;
        private GameCpks? _cpks; // one listing and one index read per CPK, shared by CRIFsV2Hook folders and FEF routes

        /// <summary>A mod in Reloaded-II's layout: only its mods' folders give game files, <c>Redirector/</c>, the FEF folders, then <c>CRIFsV2Hook/</c>.</summary>
        private void ReloadedMod(ReloadedModLayout layout)
        {
            if (layout.Redirector is { } redirector)
            {
                _rule = ModRules.Redirector;
                Folder(redirector, "", inGame: true, warned: false);
            }
            _cpks ??= new GameCpks(router._game, router._slices, router._detect, _decoded);
            _fef ??= new FefRoutes(router._game, router._slices.ToDictionary(s => s.Key, s => s.Value.Format), router._detect, _cpks);
            _fef.Add(_modRoot, _modName, layout, GameArchive, Warnings);
            if (layout.CriFsV2Hook is { } criFs)
            {
                _criFs ??= new CriFsRoutes(_cpks);
                _criFs.Add(_modRoot, _modName, criFs, GameArchive, Warnings);
            }
            if (layout.OthersWarning(_modRoot) is { } others)
                Warnings.Add(others);
        }

        /// <summary>The changes to a game archive (or a slice) an FEF route matched, created on first use.</summary>
        private ArchiveChanges GameArchive(string relative, IArchiveFormat format) =>
            router._slices.TryGetValue(relative, out var slice)
                ? SliceArchive(relative, slice)
                : ArchiveFor(relative, () => new ArchiveChanges(relative, GamePaths.Full(router._game, relative), format, _decoded));
    }
}
