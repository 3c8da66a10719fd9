using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// Refuses a mount point inside the game or a mod folder, or one of those folders itself: the mount would show itself
/// inside itself (<c>find</c> recursed forever). Paths are compared with their symlinks resolved, as the game's own are followed.
/// </summary>
internal static class MountPointPlace
{
    /// <summary>The one-line refusal, or null when <paramref name="mountPoint"/> is outside the game and every mod folder.</summary>
    public static string? Check(string mountPoint, string game, IEnumerable<string> mods)
    {
        var full = Path.GetFullPath(mountPoint);
        var real = RealPaths.Of(full);
        foreach (var (kind, folder) in mods.Select(m => ("mod", m)).Prepend(("game", game)))
        {
            var root = RealPaths.Of(folder);
            string where;
            if (real == root)
                where = $"the {kind} folder {Path.GetFullPath(folder)} itself";
            else if (real.StartsWith(root.TrimEnd('/') + "/", StringComparison.Ordinal))
                where = $"inside the {kind} folder {Path.GetFullPath(folder)}";
            else
                continue;
            var resolved = real == full.TrimEnd('/') ? "" : $" (it is {real})";
            var inPlace = kind == "game" && real == root ? " (or --in-place to mount over the game folder itself)" : "";
            return $"{full}: the mount point is {where}{resolved}, so the mount would show itself inside itself; "
                   + $"pick a mount point outside the game and mod folders{inPlace}";
        }
        return null;
    }

    /// <summary>
    /// For a mount over the game folder itself: the one-line refusal of a mod or cache folder inside the game folder (the
    /// mount would hide it, and the host would read it through its own mount), or null.
    /// </summary>
    public static string? CheckInPlace(string game, IEnumerable<string> mods, string? cache)
    {
        var root = RealPaths.Of(game);
        foreach (var (kind, folder) in mods.Select(m => ("mod", (string?)m)).Append(("cache", cache)))
        {
            if (string.IsNullOrEmpty(folder))
                continue;
            var real = RealPaths.Of(folder);
            if (real == root || real.StartsWith(root.TrimEnd('/') + "/", StringComparison.Ordinal))
                return $"{Path.GetFullPath(folder)}: the {kind} folder is inside the game folder {Path.GetFullPath(game)}, which the "
                       + $"in-place mount covers; move it outside the game folder";
        }
        return null;
    }
}
