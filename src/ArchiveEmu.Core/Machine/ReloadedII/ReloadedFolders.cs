using ArchiveEmu.Core.Routing;
using System.Text.Json;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>Where a Reloaded-II setup was found: its configuration folder or portable folder, the Wine prefix around it, and how it was found.</summary>
/// <param name="Prefix">The Wine prefix that maps its Windows paths (null: found outside any prefix; then only <c>Z:</c> maps).</param>
internal sealed record ReloadedLocation(string Folder, string? Prefix, string HowFound);

/// <summary>
/// The apps and mods folders of a Reloaded-II setup (Reloaded.Mod.Loader.IO <c>LoaderConfig</c>): a configuration folder's
/// <c>ReloadedII.json</c> names them (<c>ApplicationConfigDirectory</c>, <c>ModConfigDirectory</c>) as Windows paths; one that does not
/// exist here, or a <c>portable.txt</c> beside the launcher, means the defaults <c>Apps</c> and <c>Mods</c> in the launcher's folder
/// (<c>LauncherPath</c>). A portable folder holds <c>Apps/</c> and <c>Mods/</c> itself.
/// </summary>
internal sealed record ReloadedFolders(string Apps, string Mods)
{
    public const string LoaderConfigName = "ReloadedII.json";

    /// <summary>The folders of the setup at <paramref name="at"/>; an <see cref="IOException"/> naming the file when they cannot be found.</summary>
    public static ReloadedFolders Of(ReloadedLocation at)
    {
        var config = Path.Combine(at.Folder, LoaderConfigName);
        if (!File.Exists(config))
        {
            if (Directory.Exists(Path.Combine(at.Folder, "Apps")) && Directory.Exists(Path.Combine(at.Folder, "Mods")))
                return new ReloadedFolders(Path.Combine(at.Folder, "Apps"), Path.Combine(at.Folder, "Mods"));
            throw new IOException($"{at.Folder}: not a Reloaded-II setup: neither {LoaderConfigName} (its configuration folder) nor Apps/ and Mods/ (a portable Reloaded-II folder)");
        }
        using var doc = ReloadedJson.Read(config);
        var root = doc.RootElement;
        string? launcherFolder = ReloadedJson.Text(root, "LauncherPath") is { Length: > 0 } launcher && WinePaths.ToLinux(launcher, at.Prefix, out _) is { } path
            ? Path.GetDirectoryName(path) : null;
        bool portable = launcherFolder is not null && File.Exists(Path.Combine(launcherFolder, "portable.txt"));
        return new ReloadedFolders(Folder(root, "ApplicationConfigDirectory", "Apps", portable, launcherFolder, at, config),
            Folder(root, "ModConfigDirectory", "Mods", portable, launcherFolder, at, config));
    }

    private static string Folder(JsonElement root, string field, string defaultName, bool portable, string? launcherFolder, ReloadedLocation at, string config)
    {
        string? why = null;
        if (!portable && ReloadedJson.Text(root, field) is { Length: > 0 } written)
        {
            var path = written.StartsWith('/') ? written // a Linux path, as a native build would write it
                : IsWindowsRooted(written) ? WinePaths.ToLinux(written, at.Prefix, out why)
                : launcherFolder is null ? null : WinePaths.MatchCase(launcherFolder, written.Split('\\', '/'));
            if (path is not null && Directory.Exists(path))
                return path;
            if (string.IsNullOrEmpty(why)) // mapped, to nothing: say where it led ("cannot be used ()" said nothing)
                why = path is null ? $"{written} is not a folder here" : $"{written} is {path} here, which is not a folder";
        }
        if (launcherFolder is not null && Directory.Exists(Path.Combine(launcherFolder, defaultName)))
            return Path.Combine(launcherFolder, defaultName);
        throw new IOException($"{config}: {field} {(why is null ? "is not set" : $"cannot be used ({why})")}, and there is no {defaultName}/ beside the launcher "
            + $"({(launcherFolder is null ? "LauncherPath is not set or not mapped" : launcherFolder)})");
    }

    private static bool IsWindowsRooted(string path) => path.Length >= 2 && path[1] == ':' || path.StartsWith('\\');
}
