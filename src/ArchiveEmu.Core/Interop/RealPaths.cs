using System.Runtime.InteropServices;

namespace ArchiveEmu.Core.Interop;

/// <summary>
/// Paths as the kernel resolves them, for comparing folders given different ways (a symlinked Steam root, a Wine drive link,
/// a mount point reached through a link): the one real-path helper of the solution. <c>Routing/GamePaths.RealPath</c> is the
/// other way, link by link with lstat, for paths that may cross a dead mount.
/// </summary>
internal static class RealPaths
{
    /// <summary>
    /// The full path with its symlinks resolved by the kernel (realpath(3)) as far as it exists, the rest appended, with no
    /// separator at the end (but the root's). On Windows the full path only ('..' resolved, links not).
    /// </summary>
    public static string Of(string path)
    {
        var full = Path.GetFullPath(path);
        if (OperatingSystem.IsWindows())
            return Path.TrimEndingDirectorySeparator(full);
        var rest = "";
        for (var existing = full; ; existing = Path.GetDirectoryName(existing)!)
        {
            nint resolved = LibC.RealPath(existing, 0);
            if (resolved != 0)
            {
                try
                {
                    return Path.TrimEndingDirectorySeparator(Path.Join(Marshal.PtrToStringUTF8(resolved), rest));
                }
                finally
                {
                    LibC.Free(resolved);
                }
            }
            if (existing == "/")
                return Path.TrimEndingDirectorySeparator(full);
            rest = Path.Join(Path.GetFileName(existing), rest);
        }
    }

    /// <summary>The file's name in its folder with the folder's symlinks resolved: the name a rename there replaces, or a link's own place.</summary>
    public static string Location(string path)
    {
        var full = Path.GetFullPath(path);
        return Path.Combine(Of(Path.GetDirectoryName(full)!), Path.GetFileName(full));
    }

    /// <summary>
    /// Whether <paramref name="path"/> (taken as it is: resolve it first with <see cref="Of"/> or <see cref="Location"/> when
    /// that is what is meant) is <paramref name="folder"/> or inside it, the folder resolved here. Names compare as the
    /// platform's file systems do (letter case aside on Windows), or letter case aside with <paramref name="ignoreCase"/> (a
    /// Wine drive, as the Windows program behind it compares).
    /// </summary>
    public static bool IsInside(string folder, string path, bool ignoreCase = false) => IsUnder(Of(folder), path, ignoreCase);

    /// <summary>Whether <paramref name="path"/> is <paramref name="folder"/> or inside it, as written (full paths, no link resolved).</summary>
    public static bool IsUnder(string folder, string path, bool ignoreCase = false)
    {
        var comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : Comparison;
        var root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(folder));
        var inner = Path.TrimEndingDirectorySeparator(path);
        return inner.Equals(root, comparison) || inner.StartsWith(root.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar, comparison);
    }

    /// <summary>Whether two paths, resolved alike, name the same file (letter case aside on Windows).</summary>
    public static bool Same(string a, string b) => string.Equals(Path.TrimEndingDirectorySeparator(a), Path.TrimEndingDirectorySeparator(b), Comparison);

    private static StringComparison Comparison => OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
}
