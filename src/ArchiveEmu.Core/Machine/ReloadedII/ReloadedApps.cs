using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.Routing;
using System.Text.Json;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>A Reloaded-II app (<c>Apps/&lt;AppId&gt;/AppConfig.json</c>): the program it runs, as written and as mapped here, and its enabled mods in order.</summary>
internal sealed record ReloadedApp(string Id, string Name, string Config, string Location, string? MappedLocation, IReadOnlyList<string> EnabledMods);

/// <summary>
/// Finds the app of a game folder: the one whose <c>AppLocation</c> is a program inside the folder, compared with symlinks
/// resolved and letter case aside, as Windows compares (Reloaded.Mod.Loader <c>Loader.FindThisApplication</c> compares the
/// running program's path the same way). Apps are read as Reloaded-II reads them (<c>ApplicationConfig.GetAllApplications</c>:
/// <c>AppConfig.json</c> in the apps folder or one folder down); a relative <c>AppLocation</c> is relative to its AppConfig.json.
/// </summary>
internal static class ReloadedApps
{
    public static List<ReloadedApp> ReadAll(string appsFolder, string? prefix, List<string> problems)
    {
        var options = new EnumerationOptions { RecurseSubdirectories = true, MaxRecursionDepth = 1, MatchCasing = MatchCasing.CaseInsensitive, IgnoreInaccessible = true };
        var files = Directory.EnumerateFiles(appsFolder, "AppConfig.json", options).Order(StringComparer.OrdinalIgnoreCase);
        return ReloadedJson.ReadEach(files, file => Read(file, prefix), "the app", problems);
    }

    private static ReloadedApp Read(string file, string? prefix)
    {
        using var doc = ReloadedJson.Read(file);
        var root = doc.RootElement;
        var location = ReloadedJson.Text(root, "AppLocation") ?? "";
        var enabled = root.ValueKind == JsonValueKind.Object && root.TryGetProperty("EnabledMods", out var list) && list.ValueKind == JsonValueKind.Array
            ? list.EnumerateArray().Where(v => v.ValueKind == JsonValueKind.String).Select(v => v.GetString()!).ToArray() : [];
        return new ReloadedApp(ReloadedJson.Text(root, "AppId") ?? Path.GetFileName(Path.GetDirectoryName(file)!),
            ReloadedJson.Text(root, "AppName") ?? "", file, location, Map(location, file, prefix), enabled);
    }

    /// <summary>The app whose program is inside <paramref name="gameFolder"/> (the first one, in the apps folder's order); an
    /// <see cref="IOException"/> listing every app and where its program is when none is.</summary>
    public static ReloadedApp ForGame(IReadOnlyList<ReloadedApp> apps, string gameFolder, string appsFolder, List<string> notes)
    {
        var matching = apps.Where(a => a.MappedLocation is { } exe && RealPaths.IsInside(gameFolder, RealPaths.Of(exe), ignoreCase: true)).ToList();
        if (matching.Count == 0)
        {
            var listed = apps.Count == 0 ? "it has none"
                : "its apps: " + string.Join("; ", apps.Select(a => $"{a.Id} runs {(a.Location.Length == 0 ? "nothing (no AppLocation)" : a.Location)}"
                    + (a.MappedLocation is { } m && m != a.Location ? $" ({m})" : "")));
            throw new IOException($"{appsFolder}: no Reloaded-II app runs a program in the game folder {Path.GetFullPath(gameFolder)}; {listed}");
        }
        foreach (var other in matching.Skip(1))
            notes.Add($"{other.Config}: also runs a program in the game folder; {matching[0].Id} is used, the first in the apps folder");
        return matching[0];
    }

    private static string? Map(string location, string config, string? prefix)
    {
        if (location.Length == 0 || location.Contains('\0')) // no program has a NUL in its path: it threw ArgumentException (issue 48)
            return null;
        if (location.StartsWith('/'))
            return location;
        if (location.Length >= 2 && location[1] == ':' || location.StartsWith('\\'))
            return WinePaths.ToLinux(location, prefix, out _);
        return WinePaths.MatchCase(Path.GetDirectoryName(config)!, location.Split('\\', '/'));
    }
}
