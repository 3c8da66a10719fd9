using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Decides, per open, how the kernel page cache may be used. The kernel caches pages per path (inode), so:
/// keep the cache (keep_cache) when this open serves the same version as the last one, so warm reads never
/// reach the host; drop it (the default) when the version changed; and bypass it (direct_io) while handles
/// on another version of the path are still open, so the two versions' pages can never mix.
/// </summary>
internal sealed class PageCachePolicy
{
    private readonly object _lock = new();
    private readonly Dictionary<string, PathState> _paths = new(StringComparer.Ordinal);

    private sealed class PathState
    {
        public FileVersion? CachedVersion;
        public readonly Dictionary<FileVersion, int> OpenVersions = new();
    }

    /// <returns>Whether to set keep_cache and direct_io, and whether the path changed version since the kernel
    /// last cached it (so its cached attributes may be stale too).</returns>
    public (bool KeepCache, bool DirectIo, bool VersionChanged) Opened(string path, FileVersion version)
    {
        lock (_lock)
        {
            if (!_paths.TryGetValue(path, out var state))
                _paths[path] = state = new PathState();
            bool otherOpen = state.OpenVersions.Keys.Any(v => !v.Equals(version));
            state.OpenVersions[version] = state.OpenVersions.GetValueOrDefault(version) + 1;
            if (otherOpen)
                return (false, true, false);
            bool keep = version.Equals(state.CachedVersion);
            bool changed = state.CachedVersion is not null && !keep;
            state.CachedVersion = version;
            return (keep, false, changed);
        }
    }

    public void Closed(string path, FileVersion version)
    {
        lock (_lock)
        {
            if (!_paths.TryGetValue(path, out var state) || !state.OpenVersions.TryGetValue(version, out int count))
                return;
            if (count > 1)
                state.OpenVersions[version] = count - 1;
            else
                state.OpenVersions.Remove(version);
        }
    }
}
