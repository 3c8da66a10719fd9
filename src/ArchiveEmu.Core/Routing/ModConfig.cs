using System.Text.Json;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// A mod's <c>ModConfig.json</c>, the fields ArchiveEmu uses (Reloaded-II, source/Reloaded.Mod.Loader.IO/Config/ModConfig.cs),
/// read through <see cref="ReloadedJson"/> as Reloaded-II reads it. The one reader: routing takes the files it names (the mod's
/// metadata and code, never game files: <see cref="ReloadedModLayout"/>), finding a player's mods takes its id, version and
/// dependencies (<c>Machine/ReloadedII</c>).
/// </summary>
internal sealed class ModConfig
{
    public const string FileName = "ModConfig.json";

    // Reloaded-II's defaults for fields a ModConfig.json leaves out (ModConfig.cs).
    private const string DefaultId = "reloaded.template.modconfig";
    private const string DefaultName = "Reloaded Mod Config Template";
    private const string DefaultVersion = "1.0.0";

    /// <summary>The fields naming the mod's code, in the order Reloaded-II tries them.</summary>
    private static readonly string[] CodeFields = ["ModDll", "ModNativeDll64", "ModNativeDll32", "ModR2RManagedDll64", "ModR2RManagedDll32"];

    // The fields naming files beside ModConfig.json: the code, the icon and the update metadata (ReleaseMetadataFileName).
    private static readonly string[] FileFields = [.. CodeFields, "ModIcon", "ReleaseMetadataFileName"];

    private ModConfig(string path, JsonElement root)
    {
        Path = path;
        IsObject = root.ValueKind == JsonValueKind.Object;
        if (!IsObject)
            root = EmptyObject.RootElement; // every field left out: Reloaded-II's defaults, no file named
        Id = ReloadedJson.Text(root, "ModId") ?? DefaultId;
        Name = ReloadedJson.Text(root, "ModName") ?? DefaultName;
        Version = ReloadedJson.Text(root, "ModVersion") ?? DefaultVersion;
        Dependencies = Strings(root, "ModDependencies");
        SupportedAppIds = Strings(root, "SupportedAppId");
        IsUniversal = root.TryGetProperty("IsUniversalMod", out var universal) && universal.ValueKind == JsonValueKind.True;
        Code = CodeFields.Select(f => ReloadedJson.Text(root, f)).FirstOrDefault(v => !string.IsNullOrEmpty(v));
        NamedFiles = [.. FilesNamed(root)];
    }

    private static readonly JsonDocument EmptyObject = JsonDocument.Parse("{}");

    /// <summary>The file read.</summary>
    public string Path { get; }

    /// <summary>
    /// Whether the file is a JSON object, as every ModConfig.json Reloaded-II writes is. Finding a player's mods skips one that is
    /// not (Reloaded-II cannot load it); routing reads it as naming no file.
    /// </summary>
    public bool IsObject { get; }

    public string Id { get; }
    public string Name { get; }
    public string Version { get; }

    /// <summary>The ModIds it depends on (<c>ModDependencies</c>), in its order.</summary>
    public IReadOnlyList<string> Dependencies { get; }

    /// <summary>The app ids it is for (<c>SupportedAppId</c>, the executable names Reloaded-II matches).</summary>
    public IReadOnlyList<string> SupportedAppIds { get; }

    public bool IsUniversal { get; }

    /// <summary>The mod's code as its first code field names it, in Reloaded-II's order (as written); null: a mod of files only.</summary>
    public string? Code { get; }

    /// <summary>The files it names (code, icon, update metadata), relative to its folder with '/', each with its field.</summary>
    public IReadOnlyList<(string Field, string Name)> NamedFiles { get; }

    /// <summary>Whether <paramref name="field"/> names code.</summary>
    public static bool IsCodeField(string field) => CodeFields.Contains(field, StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// Reads <paramref name="file"/>; a file that cannot be read or is no JSON is the <see cref="IOException"/> or
    /// <see cref="InvalidDataException"/> <see cref="ReloadedJson.Read"/> throws.
    /// </summary>
    public static ModConfig Read(string file)
    {
        using var doc = ReloadedJson.Read(file);
        return new ModConfig(file, doc.RootElement);
    }

    // Field names compare ignoring case here, as the layout always did; a name that is no relative path names no file of the mod.
    private static IEnumerable<(string Field, string Name)> FilesNamed(JsonElement root)
    {
        foreach (var property in root.EnumerateObject())
        {
            if (FileFields.Contains(property.Name, StringComparer.OrdinalIgnoreCase) && property.Value.ValueKind == JsonValueKind.String
                && property.Value.GetString() is { Length: > 0 } name && GamePaths.TryParse(name, out var file))
                yield return (property.Name, file);
        }
    }

    private static string[] Strings(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Array
            ? [.. value.EnumerateArray().Where(v => v.ValueKind == JsonValueKind.String).Select(v => v.GetString()!)]
            : [];
}
