namespace ArchiveEmu.Core.Routing;

/// <summary>Paths inside a root folder: normalised with '/' separators, and never allowed to leave the root.</summary>
internal static class GamePaths
{
    public static string Normalise(string relativePath) => relativePath.Replace('\\', '/').Trim('/');

    /// <summary>
    /// The full path of <paramref name="relativePath"/> inside <paramref name="root"/>. An absolute path,
    /// a '..' step, or a symlink resolving outside the root is an <see cref="IOException"/> naming it.
    /// </summary>
    public static string Resolve(string root, string relativePath)
    {
        if (Path.IsPathRooted(relativePath) || relativePath.Replace('\\', '/').Split('/').Contains(".."))
            throw new IOException($"{relativePath}: must be a path inside {root} (no absolute paths, no '..')");
        var full = Path.GetFullPath(Path.Combine(root, relativePath));
        RequireInside(root, full);
        return full;
    }

    /// <summary>Refuses <paramref name="path"/> if it, or a symlink on the way to it, leads outside <paramref name="root"/>.</summary>
    public static void RequireInside(string root, string path)
    {
        var realRoot = RealPath(root);
        var real = RealPath(path);
        if (real != realRoot && !real.StartsWith(realRoot + Path.DirectorySeparatorChar, StringComparison.Ordinal))
            throw new IOException($"{path}: leads outside {root} (to {real}); refused");
    }

    /// <summary>
    /// The entries of <paramref name="folder"/> (which the caller has already checked is inside <paramref name="root"/>),
    /// in ordinal order, each with whether it is a folder. Only a symlink can lead out of a folder that is inside the
    /// root, so only symlinks pay for <see cref="RequireInside"/>: resolving every component of every path cost about
    /// twenty syscalls per file, most of the start-up time of a mod with thousands of textures.
    /// </summary>
    public static IEnumerable<(string Path, bool IsFolder)> EntriesInside(string root, string folder)
    {
        var options = new EnumerationOptions { AttributesToSkip = 0, IgnoreInaccessible = false, RecurseSubdirectories = false };
        var entries = new System.IO.Enumeration.FileSystemEnumerable<(string Path, bool IsFolder, bool IsLink)>(folder,
            static (ref System.IO.Enumeration.FileSystemEntry e) =>
                (e.ToFullPath(), e.IsDirectory, (e.Attributes & FileAttributes.ReparsePoint) != 0), options);
        foreach (var (path, isFolder, isLink) in entries.OrderBy(e => e.Path, StringComparer.Ordinal))
        {
            if (isLink)
            {
                RequireInside(root, path);
                yield return (path, Directory.Exists(path));
            }
            else
                yield return (path, isFolder);
        }
    }

    /// <summary>The path with every symlink along it resolved (as far as it exists).</summary>
    public static string RealPath(string path) => RealPath(path, depth: 0);

    private static string RealPath(string path, int depth)
    {
        if (depth > 40)
            throw new IOException($"{path}: too many levels of symbolic links");
        var parts = Path.GetFullPath(path).Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries);
        var current = Path.DirectorySeparatorChar.ToString();
        for (int i = 0; i < parts.Length; i++)
        {
            current = Path.Combine(current, parts[i]);
            var info = new FileInfo(current);
            if (info.LinkTarget is { } target)
            {
                // Resolve the target itself the same way: it may pass through other links.
                var absolute = Path.IsPathRooted(target) ? target : Path.Combine(Path.GetDirectoryName(current)!, target);
                current = RealPath(absolute, depth + 1);
            }
            else if (!info.Exists && !Directory.Exists(current))
                return Path.Combine(new[] { current }.Concat(parts.Skip(i + 1)).ToArray());
        }
        return current;
    }
}
