using System.Runtime.InteropServices;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Cli.Commands;

/// <summary>Paths as the filesystem resolves them (symlinks and '..'), for comparing what the user gave with the game and mod folders.</summary>
internal static class ResolvedPaths
{
    /// <summary>
    /// The full path with its symlinks resolved by the kernel (realpath(3)) as far as it exists, the rest appended. On
    /// Windows the full path only ('..' resolved, links not).
    /// </summary>
    public static string Real(string path)
    {
        var full = Path.GetFullPath(path);
        if (OperatingSystem.IsWindows())
            return full;
        var rest = "";
        for (var existing = full; ; existing = Path.GetDirectoryName(existing)!)
        {
            nint resolved = LibC.RealPath(existing, 0);
            if (resolved != 0)
            {
                try
                {
                    return Path.Join(Marshal.PtrToStringUTF8(resolved), rest);
                }
                finally
                {
                    LibC.Free(resolved);
                }
            }
            if (existing == "/")
                return full;
            rest = Path.Join(Path.GetFileName(existing), rest);
        }
    }

    /// <summary>The file's name in its folder with the folder's symlinks resolved: the name a rename there replaces, or a link's own place.</summary>
    public static string Location(string path)
    {
        var full = Path.GetFullPath(path);
        return Path.Combine(Real(Path.GetDirectoryName(full)!), Path.GetFileName(full));
    }

    /// <summary>Whether <paramref name="path"/> (already resolved) is <paramref name="folder"/> or inside it (resolved here).</summary>
    public static bool IsInside(string folder, string path)
    {
        var root = Real(folder).TrimEnd(Path.DirectorySeparatorChar);
        return Same(path, root) || path.StartsWith(root + Path.DirectorySeparatorChar, Comparison);
    }

    public static bool Same(string a, string b) => string.Equals(a, b, Comparison);

    private static StringComparison Comparison => OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
}
