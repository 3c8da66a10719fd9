namespace ArchiveEmu.Host;

/// <summary>
/// Finds a program by name in PATH alone, as a shell does. .NET's Process.Start also looks in the current folder, which
/// in place is the game folder: through the mount, and once the mount stops serving (fusermount3 at unmount) that stat
/// never returns — the host waited forever on its own mount.
/// </summary>
public static class ProgramSearch
{
    /// <summary>The full path of <paramref name="name"/> from PATH (or <paramref name="searchPath"/>); a name holding '/' is returned as it is; null when not found.</summary>
    public static string? OnPath(string name, string? searchPath = null)
    {
        if (name.Contains('/'))
            return name;
        foreach (var folder in (searchPath ?? Environment.GetEnvironmentVariable("PATH") ?? "/usr/local/bin:/usr/bin:/bin").Split(':'))
        {
            if (folder.Length == 0 || !Path.IsPathRooted(folder)) // an empty or relative entry means the current folder: skipped
                continue;
            var candidate = Path.Combine(folder, name);
            if (File.Exists(candidate))
                return candidate;
        }
        return null;
    }
}
