namespace ArchiveEmu.Core.MergedCache.Folder;

/// <summary>
/// A game folder read through another path than its own: the host in place reads it through a held handle
/// (<c>/proc/self/fd/N</c>) while the player knows it as its own path. Cache keys, <c>cache ls</c> and stored layouts
/// name files by <see cref="Shown"/>, so an in-place mount, a mount elsewhere and a build of one game share one entry per
/// archive; files are opened (and their identity checked) by <see cref="Read"/>.
/// </summary>
/// <param name="Read">The folder as this process opens it.</param>
/// <param name="Shown">The folder's own path.</param>
internal sealed record ShownFolder(string Read, string Shown)
{
    private readonly string _read = Path.TrimEndingDirectorySeparator(Read);
    private readonly string _shown = Path.TrimEndingDirectorySeparator(Shown);

    /// <summary><paramref name="path"/> named by the folder's own path when it is inside <see cref="Read"/>; else as it is.</summary>
    public string Show(string path) => Swap(path, _read, _shown);

    /// <summary><paramref name="path"/> (as <see cref="Show"/> names it) as this process opens it.</summary>
    public string ReadPath(string path) => Swap(path, _shown, _read);

    private static string Swap(string path, string from, string to) =>
        path.StartsWith(from, StringComparison.Ordinal) && (path.Length == from.Length || path[from.Length] == '/' || path[from.Length] == Path.DirectorySeparatorChar)
            ? string.Concat(to, path.AsSpan(from.Length))
            : path;
}
