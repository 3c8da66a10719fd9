using ArchiveEmu.Core.Routing;
using System.Text.Json;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>One installed Reloaded-II mod: its <c>ModConfig.json</c> fields ArchiveEmu uses, and its folder.</summary>
internal sealed record ReloadedMod(string Id, string Name, string Version, string Folder, IReadOnlyList<string> Dependencies,
    IReadOnlyList<string> SupportedAppIds, bool IsUniversal, string? Code)
{
    /// <summary>"Name 1.2.0" as the report shows it.</summary>
    public string Title => $"{Name} {Version}";
}

/// <summary>
/// Every mod under Reloaded-II's mods folder, as Reloaded-II finds them (Reloaded.Mod.Loader.IO <c>ModConfig.GetAllMods</c>: every
/// <c>ModConfig.json</c> at least one folder down, at any depth, grouping folders allowed) and what could not be read.
/// </summary>
internal static class ReloadedModConfigs
{
    public const string FileName = "ModConfig.json";

    // Reloaded-II's defaults for fields a ModConfig.json leaves out (ModConfig.cs).
    private const string DefaultId = "reloaded.template.modconfig";
    private const string DefaultName = "Reloaded Mod Config Template";
    private const string DefaultVersion = "1.0.0";
    private static readonly string[] CodeFields = ["ModDll", "ModNativeDll64", "ModNativeDll32", "ModR2RManagedDll64", "ModR2RManagedDll32"];

    /// <summary>The mods in the order Reloaded-II lists them (paths ignoring case, as on Windows), and one line per unreadable file.</summary>
    public static List<ReloadedMod> ReadAll(string modsFolder, List<string> problems)
    {
        var top = Path.TrimEndingDirectorySeparator(Path.GetFullPath(modsFolder));
        // Each real folder once (GameTree): a link loop (ln -s . Mods/loop) read every mod 40 times over, two loops hung.
        var files = GameTree.Files(top)
            .Where(f => f.Contains('/') && Path.GetFileName(f).Equals(FileName, StringComparison.OrdinalIgnoreCase)) // one in the mods folder itself is no mod
            .Select(f => GamePaths.Full(top, f))
            .Order(StringComparer.OrdinalIgnoreCase);
        var realTop = GamePaths.RealPath(top);
        return ReloadedJson.ReadEach(files.Where(file => LeadsOutOf(top, realTop, file, problems) is false), Read, "the mod", problems);
    }

    // A ModConfig.json, or the mod folder holding it, reached through a link that leads out of the Mods folder: skipped with one
    // line, as --mod refuses a link out of a mod (downloaded mods carry links). The Mods folder itself may be a link: players
    // keep it on another drive, so it is compared by its real path.
    private static bool LeadsOutOf(string top, string realTop, string file, List<string> problems)
    {
        var real = GamePaths.RealPath(file);
        if (real.StartsWith(realTop + Path.DirectorySeparatorChar, StringComparison.Ordinal))
            return false;
        problems.Add($"{file}: leads out of the Mods folder {top} (to {real}); the mod is skipped, as a link out of a mod folder is");
        return true;
    }

    public static ReloadedMod Read(string file)
    {
        using var doc = ReloadedJson.Read(file);
        var root = doc.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
            throw new ReloadedJson.NotJson(file, "not a JSON object");
        var code = CodeFields.Select(f => Text(root, f)).FirstOrDefault(v => !string.IsNullOrEmpty(v));
        return new ReloadedMod(Text(root, "ModId") ?? DefaultId, Text(root, "ModName") ?? DefaultName, Text(root, "ModVersion") ?? DefaultVersion,
            Path.GetDirectoryName(file)!, Strings(root, "ModDependencies"), Strings(root, "SupportedAppId"),
            root.TryGetProperty("IsUniversalMod", out var universal) && universal.ValueKind == JsonValueKind.True, code);
    }

    private static string? Text(JsonElement root, string name) => ReloadedJson.Text(root, name);

    private static string[] Strings(JsonElement root, string name) =>
        root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.Array
            ? [.. value.EnumerateArray().Where(v => v.ValueKind == JsonValueKind.String).Select(v => v.GetString()!)]
            : [];
}
