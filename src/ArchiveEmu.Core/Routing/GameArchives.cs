using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The archive at a route of the game folder as it ships, found the one way every front door finds it: a declared slice
/// (an archive inside another file), else the game file at that path, its format detected from its head.
/// </summary>
internal static class GameArchives
{
    /// <summary>
    /// The unchanged route of the archive at <paramref name="route"/>; a missing file or an unknown format is an error naming it.
    /// <paramref name="detect"/> finds a game file's format (default: <see cref="ArchiveFormats.Detect(string)"/>; a front keeps them: <see cref="DetectedFormats"/>).
    /// </summary>
    public static ArchiveRoute At(string gameFolder, string route, IReadOnlyDictionary<string, (ArchiveSource Source, IArchiveFormat Format)>? slices,
        Func<string, IArchiveFormat?>? detect = null)
    {
        if (slices is not null && slices.TryGetValue(route, out var slice))
            return new ArchiveRoute(route, slice.Source.Path, slice.Format, ArchivePatch.Empty, [], slice.Source);
        var path = GamePaths.Resolve(gameFolder, route);
        if (!GamePaths.FileExists(path))
            throw new FileNotFoundException($"{path}: no archive at route '{route}' in the game folder{GamePaths.DanglingLink(path)}", path);
        var format = (detect ?? ArchiveFormats.Detect)(path) ?? throw new ArchiveFormatException(path, 0, ArchiveFormats.NotKnown(path));
        return new ArchiveRoute(route, path, format, ArchivePatch.Empty, []);
    }

    /// <summary>
    /// How the entries of the archive at <paramref name="source"/> are addressed: the format's way, or for a format with both
    /// (an ID-only CPK) what its header says. A header that cannot be read keeps the format's way; building it reports the damage.
    /// </summary>
    public static EntryAddressing AddressingOf(IArchiveFormat format, ArchiveSource source)
    {
        try
        {
            return format.AddressingOf(source);
        }
        catch (Exception e) when (e is ArchiveFormatException or IOException)
        {
            return format.Addressing;
        }
    }
}
