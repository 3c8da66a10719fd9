namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The folders and files below a folder as the route walk sees a game folder (docs/DESIGN.md, "Paths and symlinks"):
/// symlinked folders are followed (game data moved to another drive), each real folder once (two <c>ln -s .</c> links made
/// .NET's recursive listing run for minutes), a Wine prefix's drive links (<c>pfx/dosdevices/z:</c> → /) are not entered, and a
/// folder that cannot be listed is an entry of its own rather than an error. The route walk, the plan key and the Mods
/// folder's search all walk this way, so the key covers exactly what the walk can read.
/// </summary>
internal static class GameTree
{
    public enum Kind { File, Folder, Unreadable }

    /// <summary>An entry, by its path relative to the root with '/' separators.</summary>
    public readonly record struct Entry(string Relative, Kind Kind);

    /// <summary>Every entry below <paramref name="root"/>, each folder's entries in ordinal order, a folder before what it holds.</summary>
    public static IEnumerable<Entry> Walk(string root) => Walk(root, "", new HashSet<string>(StringComparer.Ordinal));

    /// <summary>The files below <paramref name="root"/>, relative with '/'.</summary>
    public static IEnumerable<string> Files(string root) => Walk(root).Where(e => e.Kind == Kind.File).Select(e => e.Relative);

    private static IEnumerable<Entry> Walk(string root, string relative, HashSet<string> seen)
    {
        var full = GamePaths.Full(root, relative);
        string real;
        try
        {
            real = GamePaths.RealPath(full);
        }
        catch (IOException) // too many levels of links
        {
            yield break;
        }
        if (!seen.Add(real))
            yield break;
        (string Name, bool IsFolder)[]? names = null;
        try
        {
            // Only a symlink costs a stat (to see whether it leads to a folder): the listing already says what the rest are.
            names = new System.IO.Enumeration.FileSystemEnumerable<(string, bool)>(full,
                static (ref System.IO.Enumeration.FileSystemEntry e) => (e.FileName.ToString(),
                    (e.Attributes & FileAttributes.ReparsePoint) != 0 ? Directory.Exists(e.ToFullPath()) : e.IsDirectory),
                new EnumerationOptions { AttributesToSkip = 0, IgnoreInaccessible = false }).ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // cannot be listed: said below, as an entry
        }
        if (names is null)
        {
            yield return new Entry(relative, Kind.Unreadable);
            yield break;
        }
        Array.Sort(names, (a, b) => string.CompareOrdinal(a.Name, b.Name));
        bool isDosDevices = Path.GetFileName(full).Equals("dosdevices", StringComparison.OrdinalIgnoreCase);
        foreach (var (name, isFolder) in names)
        {
            var child = relative.Length == 0 ? name : $"{relative}/{name}";
            if (!isFolder)
                yield return new Entry(child, Kind.File);
            else if (!(isDosDevices && name.Length == 2 && name[1] == ':')) // c:, z: — a Windows drive, the whole disk behind it
            {
                yield return new Entry(child, Kind.Folder);
                foreach (var entry in Walk(root, child, seen))
                    yield return entry;
            }
        }
    }
}
