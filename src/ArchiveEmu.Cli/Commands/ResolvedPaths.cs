using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Cli.Commands;

/// <summary>Paths as the filesystem resolves them (symlinks and '..'), for comparing what the user gave with the game and mod folders.</summary>
internal static class ResolvedPaths
{
    /// <summary>The full path with its symlinks resolved as far as it exists (<see cref="RealPaths.AsFarAsItExists"/>).</summary>
    public static string Real(string path) => RealPaths.AsFarAsItExists(path);

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
