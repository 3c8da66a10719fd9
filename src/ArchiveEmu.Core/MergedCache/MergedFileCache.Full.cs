using ArchiveEmu.Core.MergedCache.Policy;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>A cache on a full file system: nothing is stored, the archives are served by emulation, and that is said once.</summary>
internal sealed partial class MergedFileCache
{
    private int _fullReported;

    /// <summary>
    /// Says once per cache (not once per archive: a build of 300 archives on a full disk is one line) that its file system
    /// is full, naming it and the first archive that could not be stored; the archives are served by emulation.
    /// </summary>
    internal void WarnFull(string route)
    {
        if (Interlocked.Exchange(ref _fullReported, 1) != 0)
            return;
        var free = DiskUse().Free is { } bytes ? $", {Units.Bytes(bytes)} free" : "";
        Warn($"{Folder}: the cache's file system ({StorageKind.Of(Folder).Device}{free}) is full; {route} and any other archive "
            + "that could not be stored are served by emulation, which is slower to start but the same bytes (free space there, or give another folder with --cache DIR)");
    }
}
