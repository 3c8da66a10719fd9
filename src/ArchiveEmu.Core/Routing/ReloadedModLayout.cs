namespace ArchiveEmu.Core.Routing;

/// <summary>
/// What a mod folder's root holds in Reloaded-II's terms (docs/DESIGN.md, "Reloaded-II and FEF mods"): the folders its mods
/// read (<c>Redirector/</c>, <c>FEmulator/</c>, <c>AfsRedirector/</c>, <c>CRIFsV2Hook/</c>, <c>P5REssentials/</c>, <c>MFEssentials/</c>), the folders only code
/// inside the game reads (<see cref="InGameCode"/>), the mod's own metadata (never a game file), and the rest. A root holding
/// <c>ModConfig.json</c> or any folder its mods read is a Reloaded-II mod: only those folders give game files, as in Reloaded-II.
/// Names compare ignoring letter case, as on Windows.
/// </summary>
internal sealed class ReloadedModLayout
{
    /// <summary>The root folders ArchiveEmu reads files from, as their projects spell them.</summary>
    public static readonly string[] FileLayouts = ["Redirector", "FEmulator", "AfsRedirector", "CRIFsV2Hook", "P5REssentials", "MFEssentials"];

    // Reloaded-II, source/Reloaded.Mod.Loader.IO/Config/ModConfig.cs: the icon's usual name (IconFileName) and the update
    // metadata's default name (ReleaseMetadataFileName), the mod's metadata even when ModConfig.json does not name them.
    private static readonly string[] DefaultNames = ["Preview.png", "Sewer56.Update.ReleaseMetadata.json"];

    private readonly Dictionary<string, string> _layouts;

    private ReloadedModLayout(Dictionary<string, string> layouts, bool hasConfig, IReadOnlyList<string> code,
        IReadOnlyList<(string Path, bool IsFolder)> others, string? warning)
    {
        _layouts = layouts;
        HasConfig = hasConfig;
        Code = code;
        Others = others;
        Warning = warning;
    }

    /// <summary>Full paths of the folders Reloaded-II's mods read, when the mod has them.</summary>
    public string? Redirector => Layout("Redirector");
    public string? FEmulator => Layout("FEmulator");

    /// <summary>What <see cref="FEmulator"/> holds (its emulators' folders, BF, BMD, L10N…), listed once for every reader of the mod.</summary>
    public IReadOnlyList<(string Path, bool IsFolder)> FEmulatorEntries { get; private init; } = [];
    public string? AfsRedirector => Layout("AfsRedirector");
    public string? CriFsV2Hook => Layout("CRIFsV2Hook");
    public string? P5REssentials => Layout("P5REssentials");

    /// <summary>Whether the root holds a ModConfig.json (letter case aside).</summary>
    public bool HasConfig { get; }

    /// <summary>The DLLs ModConfig.json names (<c>ModDll</c>, …), relative with '/': a code mod, whose other root folders are usually its code's own.</summary>
    public IReadOnlyList<string> Code { get; }

    public bool HasCode => Code.Count > 0;

    /// <summary>Whether the root is a Reloaded-II mod: a ModConfig.json or a folder its mods read (else it mirrors the game folder).</summary>
    public bool IsReloaded => HasConfig || _layouts.Count > 0;

    /// <summary>The root's other entries (full paths): folders only code in the game reads, unknown folders, loose files; never the
    /// mod's metadata (ModConfig.json and the files it names).</summary>
    public IReadOnlyList<(string Path, bool IsFolder)> Others { get; }

    /// <summary>A ModConfig.json that cannot be read, in one line; null when fine.</summary>
    public string? Warning { get; }

    /// <summary>The full path of the layout folder <paramref name="name"/> (one of <see cref="FileLayouts"/>), when the mod has it.</summary>
    public string? Layout(string name) => _layouts.GetValueOrDefault(name);

    public static ReloadedModLayout Read(string modRoot)
    {
        var entries = GamePaths.EntriesInside(modRoot, modRoot).ToArray();
        var layouts = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var name in FileLayouts)
        {
            // A root spelling one twice in different letter case (Linux) is read through the first in ordinal order.
            if (entries.Where(e => e.IsFolder && Path.GetFileName(e.Path).Equals(name, StringComparison.OrdinalIgnoreCase))
                    .Select(e => e.Path).Order(StringComparer.Ordinal).FirstOrDefault() is { } folder)
                layouts[name] = folder;
        }

        var metadata = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        string? warning = null;
        var code = new List<string>();
        var config = entries.FirstOrDefault(e => !e.IsFolder && Path.GetFileName(e.Path).Equals(ModConfig.FileName, StringComparison.OrdinalIgnoreCase)).Path;
        if (config is not null)
        {
            metadata.Add(Path.GetFileName(config));
            metadata.UnionWith(DefaultNames);
            try
            {
                foreach (var (field, name) in ModConfig.Read(config).NamedFiles)
                {
                    metadata.Add(name);
                    if (ModConfig.IsCodeField(field))
                        code.Add(name);
                }
            }
            catch (Exception e) when (e is InvalidDataException or IOException or UnauthorizedAccessException)
            {
                var problem = e is ReloadedJson.NotJson or InvalidDataException ? e.Message : $"{config}: not read ({e.Message})";
                warning = $"{problem}; only it, Preview.png and Sewer56.Update.ReleaseMetadata.json are taken as the mod's metadata";
            }
        }

        // A folder holding a file ModConfig.json names (an icon in Icons/) is the mod's metadata too.
        var metadataFolders = metadata.Where(m => m.Contains('/')).Select(m => m[..m.IndexOf('/')]).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var others = entries.Where(e => !layouts.ContainsValue(e.Path) && !metadata.Contains(Path.GetFileName(e.Path))
            && !(e.IsFolder && metadataFolders.Contains(Path.GetFileName(e.Path)))).ToArray();
        return new ReloadedModLayout(layouts, config is not null, code.Distinct(StringComparer.OrdinalIgnoreCase).ToArray(), others, warning)
        {
            FEmulatorEntries = layouts.TryGetValue("FEmulator", out var fEmulator) ? GamePaths.EntriesInside(modRoot, fEmulator).ToArray() : [],
        };
    }

    /// <summary>The known root folder (a file layout or one only code in the game reads) nearest to <paramref name="name"/>, letter case aside.</summary>
    public static string Closest(string name) =>
        FileLayouts.Concat(InGameCode.RootFolders).MinBy(known => EditDistance.IgnoringCase(name, known))!;

    /// <summary>Whether <paramref name="name"/> looks like a misspelled layout folder: within a third of its letters of the closest one.</summary>
    public static bool NearlyALayout(string name) =>
        EditDistance.IgnoringCase(name, Closest(name)) <= Math.Max(1, Closest(name).Length / 3);
}
