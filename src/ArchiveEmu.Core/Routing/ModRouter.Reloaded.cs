using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

internal sealed partial class ModRouter
{
    /// <summary>The walk's part for Reloaded-II mods (docs/DESIGN.md, "Reloaded-II and FEF mods").</summary>
    private sealed partial class Walker
    {
        private FefRoutes? _fef;
        private CriFsRoutes? _criFs;
        private GameCpks? _cpks; // one listing and one index read per CPK, shared by CRIFsV2Hook folders and FEF routes

        /// <summary>Replacements from the mods' language folders: a mod file's full path → the language's file and its rule.</summary>
        public Dictionary<string, (string File, string Rule)> Localised { get; } = new(StringComparer.Ordinal);

        /// <summary>
        /// A Reloaded-II mod: only its layout folders give game files, <c>Redirector/</c>, the FEF folders, then the CPK folders in the
        /// order CRI FileSystem V2 Hook probes them; everything else at its root is classified and reported, never served.
        /// </summary>
        private ModReport ReloadedMod(ReloadedModLayout layout)
        {
            var notApplied = new List<NotApplied>();
            int warned = Warnings.Count;
            var code = InGameCode.Read(_modRoot, layout);
            if (layout.Redirector is { } redirector)
            {
                _rule = ModRules.Redirector;
                Folder(redirector, "", inGame: true, warned: false);
            }
            _cpks ??= new GameCpks(router._game, router._slices, router._detect, _decoded, router.Language);
            _fef ??= new FefRoutes(router._game, router._slices.ToDictionary(s => s.Key, s => s.Value.Format), router._detect, _cpks);
            _fef.Add(_modRoot, _modName, layout, code, GameArchive, Warnings);
            foreach (var name in CriFsRoutes.ProbingOrder)
            {
                if (layout.Layout(name) is not { } folder)
                    continue;
                _criFs ??= new CriFsRoutes(_cpks, fileName => router.Merges.ClaimByName(router._game, fileName));
                _criFs.Add(_modRoot, _modName, folder, name, code.Applies, GameArchive, Warnings);
            }
            RootOthers(layout, notApplied);
            var applied = AppliedFolders(layout, code, notApplied);
            var languages = layout.FEmulatorEntries.FirstOrDefault(e => e.IsFolder && IsNamed(e.Path, LanguageFolders.Folder)).Path is { } l10n
                ? LanguageFolders.Read(_modRoot, _modName, l10n, router.Language, AppliedFiles(layout, code), Localised, notApplied, Warnings)
                : [];
            if (applied.Count == 0 && layout.HasCode) // a code mod: said plainly, but it is what such a mod is, not a mistake
                notApplied.Add(new NotApplied(_modName, "", layout.Code, "a code mod: its DLL runs only inside the game under Reloaded-II"));
            else if (applied.Count == 0 && Warnings.Count == warned) // one warning a mod: a misspelled layout folder's already says its files are not applied
                Warnings.Add($"mod folder {_modRoot}: none of its files is applied by ArchiveEmu"
                    + (notApplied.Count > 0 ? " (they are listed as not applied, with why)" : " (it has no file in a layout folder)"));
            return new ModReport(_modName, _modRoot, ModReport.ReloadedLayout, applied, languages, notApplied);
        }

        /// <summary>The root's entries outside the layout folders: folders only code in the game reads, unknown folders, loose files.</summary>
        private void RootOthers(ReloadedModLayout layout, List<NotApplied> notApplied)
        {
            var loose = new List<string>();
            foreach (var (path, isFolder) in layout.Others)
            {
                string name = Path.GetFileName(path);
                if (!isFolder)
                {
                    loose.Add(name);
                    continue;
                }
                var files = GamePaths.FilesInside(_modRoot, path).Select(f => InGameCode.Relative(path, f)).Order(StringComparer.Ordinal).ToArray();
                if (InGameCode.RootReason(name) is { } reason)
                    notApplied.Add(new NotApplied(_modName, name, files, reason));
                else if (layout.HasCode && !ReloadedModLayout.NearlyALayout(name)) // a code mod's runtimes/, Template/, …: its DLL's own files
                    notApplied.Add(new NotApplied(_modName, name, files, "part of a code mod (ModConfig.json names its DLL), which runs only inside the game"));
                else
                {
                    // A CPK/ at the root is Persona Essentials' layout missing its folder (its CPK/<archive>/ lives in
                    // P5REssentials/): an edit distance would name whichever short folder is nearest ("ryo/").
                    string closest = name.Equals("CPK", StringComparison.OrdinalIgnoreCase) ? "P5REssentials/CPK" : ReloadedModLayout.Closest(name);
                    Warnings.Add($"mod folder {path}: {name}/ is no layout folder ArchiveEmu knows (the closest is {closest}/); its {files.Length} file(s) are not applied");
                    notApplied.Add(new NotApplied(_modName, name, files, $"{name}/ is no layout folder ArchiveEmu knows (the closest is {closest}/)"));
                }
            }
            if (loose.Count > 0)
                notApplied.Add(new NotApplied(_modName, "", loose.Order(StringComparer.Ordinal).ToArray(),
                    "files at a Reloaded-II mod's root are no game files, as in Reloaded-II (a code mod's DLLs run inside the game; "
                    + "whole-file replacements go in Redirector/)"));
        }

        /// <summary>The layout folders with a file applied; the scripts compiled in the game and their dummies go to <paramref name="notApplied"/>.</summary>
        private List<string> AppliedFolders(ReloadedModLayout layout, InGameCode code, List<NotApplied> notApplied)
        {
            var applied = new List<string>();
            void Add(string? folder, string name)
            {
                if (folder is not null && GamePaths.FilesInside(_modRoot, folder).Any(code.Applies))
                    applied.Add(name);
            }
            Add(layout.Redirector, ModRules.Redirector);
            foreach (var (path, isFolder) in layout.FEmulatorEntries)
            {
                string type = Path.GetFileName(path);
                if (isFolder && InGameCode.IsCompilerFolder(type))
                    notApplied.Add(new NotApplied(_modName, InGameCode.Relative(_modRoot, path), Names(path), InGameCode.CompilerReason(type)));
                else if (isFolder && type.ToUpperInvariant() is "AFS" or "AWB" or "PAK" or "SPD")
                    Add(path, $"FEmulator/{type.ToUpperInvariant()}");
                else if (!IsNamed(path, LanguageFolders.Folder)) // FefRoutes warns of it; listed here with its files
                    notApplied.Add(new NotApplied(_modName, InGameCode.Relative(_modRoot, isFolder ? path : Path.GetDirectoryName(path)!), isFolder ? Names(path) : [type],
                        "no FEmulator folder ArchiveEmu reads (AFS, AWB, PAK, SPD, L10N; BF and BMD are compiled in the game)"));
            }
            Add(layout.AfsRedirector, "AfsRedirector");
            foreach (var name in CriFsRoutes.ProbingOrder)
                Add(layout.Layout(name), $"{name}/CPK");
            // One line per layout folder holding dummies: FEmulator/PAK, or P5REssentials/CPK/<folder> (CRIFsV2Hook's alike).
            foreach (var group in code.Dummies.Select(d => InGameCode.Relative(_modRoot, d).Split('/'))
                .GroupBy(parts => string.Join('/', parts[..Math.Min(parts.Length - 1, IsNamed(parts[0], "FEmulator") ? 2 : 3)])).OrderBy(g => g.Key, StringComparer.Ordinal))
                notApplied.Add(new NotApplied(_modName, group.Key, group.Select(parts => string.Join('/', parts[(group.Key.Count(c => c == '/') + 1)..]))
                    .Order(StringComparer.Ordinal).ToArray(), "dummy files for scripts compiled in the game; the game's own file is served as it is"));
            return applied;
        }

        /// <summary>The mod's files its layout folders apply, full paths: the files a language folder may replace.</summary>
        private IReadOnlyList<string> AppliedFiles(ReloadedModLayout layout, InGameCode code)
        {
            var files = new List<string>();
            foreach (var folder in new[] { layout.Redirector, layout.AfsRedirector }.Concat(CriFsRoutes.ProbingOrder.Select(layout.Layout)).OfType<string>())
                files.AddRange(GamePaths.FilesInside(_modRoot, folder));
            foreach (var (path, isFolder) in layout.FEmulatorEntries)
            {
                if (isFolder && !InGameCode.IsCompilerFolder(Path.GetFileName(path)) && !IsNamed(path, LanguageFolders.Folder))
                    files.AddRange(GamePaths.FilesInside(_modRoot, path));
            }
            return files.Where(code.Applies).Select(Path.GetFullPath).ToArray();
        }

        private string[] Names(string folder) =>
            GamePaths.FilesInside(_modRoot, folder).Select(f => InGameCode.Relative(folder, f)).Order(StringComparer.Ordinal).ToArray();

        private static bool IsNamed(string path, string name) => Path.GetFileName(path).Equals(name, StringComparison.OrdinalIgnoreCase);

        /// <summary>The changes to a game archive (or a slice) an FEF route matched, created on first use.</summary>
        private ArchiveChanges GameArchive(string relative, IArchiveFormat format) =>
            router._slices.TryGetValue(relative, out var slice)
                ? SliceArchive(relative, slice)
                : ArchiveFor(relative, () => new ArchiveChanges(relative, GamePaths.Full(router._game, relative), format, _decoded, router.Merges));
    }
}
