using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;

namespace ArchiveEmu.Host.Requests;

/// <summary>
/// The cache a request asks for, opened the same way by the CLI's commands and the mount, and the one wording of why it cannot
/// take what they store; each says what follows (build stops, the mount serves without storing).
/// </summary>
internal static class RequestedCache
{
    /// <summary>None with --no-cache; else the cache at <paramref name="folder"/>, the per-user default when none is named (null).</summary>
    public static MergedFileCache? Open(bool noCache, string? folder, CacheOptions options) =>
        noCache ? null : new MergedFileCache(folder ?? MergedFileCache.DefaultFolder(), options);

    /// <summary>Why nothing can be stored into <paramref name="cache"/>, the start of one line naming its folder; null when it can.</summary>
    public static string? WhyNotStoring(MergedFileCache cache) =>
        CacheFolderAccess.WhyNotWritable(cache.Folder) is { } problem ? $"{Path.GetFullPath(cache.Folder)}: the cache folder {problem}" : null;
}
