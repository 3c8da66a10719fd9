namespace ArchiveEmu.Core.Routing;

/// <summary>
/// A mod's files that only work through code running inside the game under Reloaded-II (docs/DESIGN.md, "What is not applied"):
/// flow and message scripts Persona Essentials compiles into BF/BMD files in the game process (<c>FEmulator/BF</c>,
/// <c>FEmulator/BMD</c>), BGME music scripts (<c>bgme/</c>), Ryo audio (<c>ryo/</c>) and Costume Framework folders (<c>costumes/</c>),
/// and the dummy <c>.bf</c>/<c>.bmd</c> files those scripts need at the real path (Essentials' <c>docs/usage.md</c>, "Editing BF Files").
/// A file server can serve none of them: they are never game files, and a dummy never replaces the game's real file.
/// </summary>
internal sealed class InGameCode
{
    /// <summary>Root folders read by code in the game, with why ArchiveEmu cannot apply them.</summary>
    private static readonly Dictionary<string, string> RootReasons = new(StringComparer.OrdinalIgnoreCase)
    {
        // BGME.Framework reads <mod>/bgme (Path.Join(modDir, "bgme")); PERSONA.md also names BGME/<game>/, the same name letter case aside.
        ["bgme"] = "BGME music scripts, applied by BGME Framework's code inside the game",
        // Ryo.Reloaded Mod.cs: Path.Join(modDir, "ryo", <the game's AppId without extension>).
        ["ryo"] = "Ryo Framework audio and movies, applied by its code inside the game",
        // P3R.CostumeFramework reads <mod>/costumes (Mod.cs: Path.Join(modDir, "costumes", "overrides.yaml")).
        ["costumes"] = "Costume Framework costumes, applied by its code inside the game",
        // p5rpc.evt.fadeouttablemerge (Mod.cs) reads <mod>/evt/evtFadeoutData.txt and builds the fade-out table in the game's
        // memory (hooking GetEvtFadeoutID); it merges no file, so nothing here is a game file (issue 50).
        ["evt"] = "event fade-out entries (evtFadeoutData.txt) that Event Fadeout Table Merging (p5rpc.evt.fadeouttablemerge) applies "
            + "with its code inside the game; a mod's EVENT/EVTFADEOUTTABLE.BIN is merged field by field",
    };

    /// <summary>FEmulator's folders read by emulators that compile scripts in the game: the folder, the game file type, the script extensions.</summary>
    private static readonly (string Folder, string Target, string[] Scripts)[] Compilers =
        [("BF", ".bf", [".flow", ".msg"]), ("BMD", ".bmd", [".msg"])];

    public static IEnumerable<string> RootFolders => RootReasons.Keys;

    /// <summary>Why a root folder is not applied, when code in the game reads it; null otherwise.</summary>
    public static string? RootReason(string name) => RootReasons.GetValueOrDefault(name);

    /// <summary>Whether <c>FEmulator/&lt;name&gt;</c> holds scripts compiled in the game.</summary>
    public static bool IsCompilerFolder(string name) => Compilers.Any(c => c.Folder.Equals(name, StringComparison.OrdinalIgnoreCase));

    public static string CompilerReason(string name) =>
        $"{name.ToUpperInvariant()} scripts that Persona Essentials (FileEmulationFramework's {name.ToUpperInvariant()} emulator) compiles into the game's "
        + $"{name.ToUpperInvariant()} files inside the game process";

    private readonly HashSet<string> _dummies = new(StringComparer.Ordinal);

    private InGameCode(IEnumerable<string> dummies) => _dummies.UnionWith(dummies);

    /// <summary>The mod's dummy files, full paths: a <c>.bf</c>/<c>.bmd</c> under a CPK or PAK layout folder whose script the mod has.</summary>
    public IReadOnlySet<string> Dummies => _dummies;

    /// <summary>Whether a layout folder's file is applied (not a dummy for a script compiled in the game).</summary>
    public bool Applies(string file) => !_dummies.Contains(file);

    /// <summary>
    /// Finds the dummies: FEF's BF and BMD emulators take a script for a file whose path, with the script's extension, contains the
    /// script's route below <c>FEmulator/BF</c> (<c>BMD</c>), letter case aside (<c>BfBuilderFactory</c>, <c>BmdBuilderFactory</c>:
    /// <c>Route.Matches</c>), so <c>FEmulator/BF/field/f007.flow</c> is for <c>…/field/f007.bf</c>; Essentials puts the dummy under
    /// <c>P5REssentials/CPK</c> or <c>FEmulator/PAK</c> (the hook's <c>CRIFsV2Hook/CPK</c> is the same folder to it).
    /// </summary>
    public static InGameCode Read(string modRoot, ReloadedModLayout layout)
    {
        if (layout.FEmulator is not { } fEmulator)
            return new InGameCode([]);
        var scripts = new List<(string Route, string Target)>();
        foreach (var (path, isFolder) in layout.FEmulatorEntries)
        {
            if (!isFolder || Compilers.FirstOrDefault(c => c.Folder.Equals(Path.GetFileName(path), StringComparison.OrdinalIgnoreCase)) is not { Folder: not null } compiler)
                continue;
            foreach (var script in GamePaths.FilesInside(modRoot, path))
            {
                if (compiler.Scripts.Contains(Path.GetExtension(script), StringComparer.OrdinalIgnoreCase))
                    scripts.Add((Relative(path, script), compiler.Target));
            }
        }
        if (scripts.Count == 0)
            return new InGameCode([]);
        var candidates = CriFsRoutes.ProbingOrder.Select(layout.Layout).Append(fEmulator).OfType<string>()
            .SelectMany(folder => GamePaths.FilesInside(modRoot, folder));
        return new InGameCode(candidates.Where(file => scripts.Any(s => Path.GetExtension(file).Equals(s.Target, StringComparison.OrdinalIgnoreCase)
            && Meets(InLayout(Relative(modRoot, Path.ChangeExtension(file, Path.GetExtension(s.Route)))), s.Route))));
    }

    /// <summary>
    /// Whether the game path a dummy stands for can contain the script's route, as FEF tests it: the dummy's path in the game
    /// (<paramref name="inGame"/>) is known only from its end (what comes before it, a CPK's bind folder or the PAK's folders, is the
    /// game's), so the route lies within it, or ends with it.
    /// </summary>
    private static bool Meets(string inGame, string route) =>
        inGame.Contains(route, StringComparison.OrdinalIgnoreCase) || route.EndsWith("/" + inGame, StringComparison.OrdinalIgnoreCase);

    /// <summary>A layout file's path in the game: below <c>FEmulator/&lt;TYPE&gt;/</c>, or below <c>&lt;layout&gt;/CPK/&lt;any folder&gt;/</c>.</summary>
    private static string InLayout(string relative)
    {
        var parts = relative.Split('/');
        int skip = parts[0].Equals("FEmulator", StringComparison.OrdinalIgnoreCase) ? 2 : 3;
        return string.Join('/', parts[Math.Min(skip, parts.Length - 1)..]);
    }

    internal static string Relative(string folder, string path) => Path.GetRelativePath(folder, path).Replace(Path.DirectorySeparatorChar, '/');
}
