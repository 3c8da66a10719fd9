using System.Text.Json;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// What a mod folder's root holds in Reloaded-II's terms (docs/DESIGN.md, "Reloaded-II and FEF mods"): the folders its mods
/// read (<c>Redirector/</c>, <c>FEmulator/</c>, <c>AfsRedirector/</c>, <c>CRIFsV2Hook/</c>), the mod's own metadata (never a game file), and the
/// rest. A root holding any of those folders is in Reloaded-II's layout: only they give game files, as in Reloaded-II.
/// Names compare ignoring letter case, as on Windows.
/// </summary>
internal sealed class ReloadedModLayout
{
    private const string ConfigFileName = "ModConfig.json";

    // Reloaded-II, source/Reloaded.Mod.Loader.IO/Config/ModConfig.cs: the fields naming files beside ModConfig.json,
    // the icon's usual name (IconFileName) and the update metadata's default name (ReleaseMetadataFileName).
    private static readonly string[] FileFields = ["ModIcon", "ModDll", "ModR2RManagedDll32", "ModR2RManagedDll64", "ModNativeDll32", "ModNativeDll64", "ReleaseMetadataFileName"];
    private static readonly string[] DefaultNames = ["Preview.png", "Sewer56.Update.ReleaseMetadata.json"];

    private ReloadedModLayout(string? redirector, string? fEmulator, string? afsRedirector, string? criFs, HashSet<string> metadata,
        IReadOnlyList<string> others, string? warning)
    {
        CriFsV2Hook = criFs;
        Redirector = redirector;
        FEmulator = fEmulator;
        AfsRedirector = afsRedirector;
        Metadata = metadata;
        Others = others;
        Warning = warning;
    }

    /// <summary>Full paths of the folders Reloaded-II's mods read, when the mod has them.</summary>
    public string? Redirector { get; }
    public string? FEmulator { get; }
    public string? AfsRedirector { get; }
    public string? CriFsV2Hook { get; }

    /// <summary>Whether the root is in Reloaded-II's layout (else it mirrors the game folder).</summary>
    public bool IsReloaded => Redirector is not null || FEmulator is not null || AfsRedirector is not null || CriFsV2Hook is not null;

    /// <summary>The mod's metadata, as paths relative to its root with '/' (ModConfig.json and the files it names), when it has a ModConfig.json.</summary>
    public HashSet<string> Metadata { get; }

    /// <summary>The root's other entries (names, folders ending in '/'): not game files in Reloaded-II's layout.</summary>
    public IReadOnlyList<string> Others { get; }

    /// <summary>A ModConfig.json that cannot be read, in one line; null when fine.</summary>
    public string? Warning { get; }

    /// <summary>In Reloaded-II's layout, the one line saying which root entries are no game files; null when none.</summary>
    public string? OthersWarning(string modRoot) => !IsReloaded || Others.Count == 0 ? null
        : $"mod folder {modRoot} is in Reloaded-II's layout (Redirector/, FEmulator/, AfsRedirector/ or CRIFsV2Hook/ at its root), so, as in Reloaded-II, "
          + $"{string.Join(", ", Others.Take(5))}{(Others.Count > 5 ? $" and {Others.Count - 5} more" : "")} at its root are not game files; "
          + "whole-file replacements go in Redirector/";

    public bool IsMetadata(string modRoot, string path) =>
        Metadata.Contains(Path.GetRelativePath(modRoot, path).Replace(Path.DirectorySeparatorChar, '/'));

    public static ReloadedModLayout Read(string modRoot)
    {
        var entries = GamePaths.EntriesInside(modRoot, modRoot).ToArray();
        string? Folder(string name) => entries.FirstOrDefault(e => e.IsFolder && Path.GetFileName(e.Path).Equals(name, StringComparison.OrdinalIgnoreCase)).Path;
        string? redirector = Folder("Redirector"), fEmulator = Folder("FEmulator"), afsRedirector = Folder("AfsRedirector"), criFs = Folder("CRIFsV2Hook");

        var metadata = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        string? warning = null;
        var config = entries.FirstOrDefault(e => !e.IsFolder && Path.GetFileName(e.Path).Equals(ConfigFileName, StringComparison.OrdinalIgnoreCase)).Path;
        if (config is not null)
        {
            metadata.Add(Path.GetFileName(config));
            metadata.UnionWith(DefaultNames);
            try
            {
                metadata.UnionWith(NamedFiles(config));
            }
            catch (JsonException e)
            {
                warning = $"{config}: not valid JSON ({e.Message}); only it, Preview.png and Sewer56.Update.ReleaseMetadata.json are taken as the mod's metadata";
            }
        }

        var readFolders = new[] { redirector, fEmulator, afsRedirector, criFs };
        var others = entries.Where(e => !readFolders.Contains(e.Path) && !metadata.Contains(Path.GetFileName(e.Path)))
            .Select(e => Path.GetFileName(e.Path) + (e.IsFolder ? "/" : "")).ToArray();
        return new ReloadedModLayout(redirector, fEmulator, afsRedirector, criFs, metadata, others, warning);
    }

    /// <summary>The files ModConfig.json names, relative to its folder with '/'.</summary>
    private static IEnumerable<string> NamedFiles(string config)
    {
        using var doc = JsonDocument.Parse(File.ReadAllBytes(config), new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip });
        if (doc.RootElement.ValueKind != JsonValueKind.Object)
            yield break;
        foreach (var property in doc.RootElement.EnumerateObject())
        {
            if (FileFields.Contains(property.Name, StringComparer.OrdinalIgnoreCase) && property.Value.ValueKind == JsonValueKind.String
                && property.Value.GetString() is { Length: > 0 } name)
                yield return GamePaths.Normalise(name);
        }
    }
}
