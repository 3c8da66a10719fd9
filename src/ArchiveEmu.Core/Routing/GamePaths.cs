namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Paths inside a root folder, normalised with '/' separators. A game path is followed through symlinks wherever they
/// lead (game data moved to another drive); a mod's entries never lead out of the mod (docs/DESIGN.md, "Paths and symlinks").
/// </summary>
internal static class GamePaths
{
    /// <summary>
    /// A path typed by a player or given through the API, as the game-relative path every lookup compares: '\\' and '/' both
    /// separate, "." and empty components are dropped (<c>./CPK//EN.CPK/</c> is <c>CPK/EN.CPK</c>). Before this, such a path
    /// matched no route and the game's original file was served as if no mod touched it. An absolute path, a '..' step, or
    /// a path naming the game folder itself is an <see cref="ArgumentException"/> naming it.
    /// </summary>
    public static string Parse(string path)
    {
        if (TryParse(path, out var relative))
            return relative;
        throw new ArgumentException(relative.Length == 0 && !IsOutside(path)
            ? $"{path}: names the game folder itself; give a file in it (such as data/textures.afs)"
            : $"{path}: must be a path inside the game folder (no absolute paths, no '..')");
    }

    /// <summary><see cref="Parse"/> without the exception: false for a path that is absolute, steps out with '..' or names no file.</summary>
    public static bool TryParse(string path, out string relative)
    {
        relative = "";
        if (IsOutside(path))
            return false;
        relative = string.Join('/', path.Split('/', '\\').Where(part => part is not ("" or ".")));
        return relative.Length > 0;
    }

    private static bool IsOutside(string path) =>
        Path.IsPathRooted(path) || path.StartsWith('/') || path.StartsWith('\\') || path.Split('/', '\\').Contains("..");

    /// <summary>The full path of a game-relative path with '/' separators, spelled with the platform's separator (one spelling on Windows).</summary>
    public static string Full(string root, string relativePath) => Path.Combine(root, relativePath.Replace('/', Path.DirectorySeparatorChar));

    /// <summary>
    /// The full path of <paramref name="relativePath"/> inside the game folder <paramref name="root"/>. An absolute path or a
    /// '..' step is an <see cref="IOException"/> naming it; symlinks on the way are the player's and are followed, wherever they lead.
    /// </summary>
    public static string Resolve(string root, string relativePath)
    {
        if (Path.IsPathRooted(relativePath) || relativePath.Replace('\\', '/').Split('/').Contains(".."))
            throw new IOException($"{relativePath}: must be a path inside {root} (no absolute paths, no '..')");
        return Path.GetFullPath(Path.Combine(root, relativePath));
    }

    /// <summary>Whether a file is at <paramref name="path"/>, symlinks followed (.NET's File.Exists says yes to a link that leads nowhere).</summary>
    public static bool FileExists(string path) => File.Exists(path) && DanglingLink(path).Length == 0;

    /// <summary>For a one-line error about a missing game path: " (a symlink to T, which leads nowhere)" for a dangling link, else "".</summary>
    public static string DanglingLink(string path)
    {
        if (new FileInfo(path).LinkTarget is not { } target)
            return "";
        try
        {
            Interop.FileStatus.Of(path); // stat(2): follows every link on the way
            return "";
        }
        catch (IOException) // missing target, or a loop of links
        {
            return $" (a symlink to {target}, which leads nowhere)";
        }
    }

    /// <summary>Refuses <paramref name="path"/> if it, or a symlink on the way to it, leads outside <paramref name="root"/> (a mod folder).</summary>
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

    /// <summary>Every file below <paramref name="folder"/> (inside <paramref name="root"/>, a mod), folders walked in ordinal order.</summary>
    public static IEnumerable<string> FilesInside(string root, string folder)
    {
        foreach (var (path, isFolder) in EntriesInside(root, folder))
        {
            if (!isFolder)
                yield return path;
            else
                foreach (var file in FilesInside(root, path))
                    yield return file;
        }
    }

    /// <summary>The path with every symlink along it resolved (as far as it exists: past a missing component there is no link).</summary>
    public static string RealPath(string path) => RealPath(path, depth: 0);

    // lstat and readlink, never a stat of what the component leads to: a component that cannot be examined (a mount whose
    // server died answers "Transport endpoint is not connected"; a folder that cannot be searched) is kept as written.
    private static string? LinkTarget(string path)
    {
        try
        {
            return new FileInfo(path).LinkTarget;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static string RealPath(string path, int depth)
    {
        if (depth > 40)
            throw new IOException($"{path}: too many levels of symbolic links");
        var parts = Path.GetFullPath(path).Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries);
        var current = Path.DirectorySeparatorChar.ToString();
        for (int i = 0; i < parts.Length; i++)
        {
            current = Path.Combine(current, parts[i]);
            if (LinkTarget(current) is { } target)
            {
                // Resolve the target itself the same way: it may pass through other links.
                var absolute = Path.IsPathRooted(target) ? target : Path.Combine(Path.GetDirectoryName(current)!, target);
                current = RealPath(absolute, depth + 1);
            }
        }
        return current;
    }
}
