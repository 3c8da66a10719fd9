using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

internal sealed partial class ModdedGameFileSystem
{
    /// <summary>
    /// Builds every targeted archive of the current snapshot, one after another, as its first stat or open would, and reads its
    /// first 4 KiB (docs/DESIGN.md,
    /// "Host and the FUSE mount"): a game stats and opens its archives as it starts, and each build (a layout read from the cache,
    /// or a parse) would otherwise hold that first call. Runs on a background thread from the moment the mount is up, while the game
    /// is still being launched; a stat that arrives first builds its archive itself (a slot builds once, whoever asks first). Stops
    /// at <paramref name="stop"/> or once a hot reload replaced the snapshot (the new one builds on demand). A build that fails is
    /// left for the reader who asks, who gets the error; it is only logged here.
    /// </summary>
    public void BuildAhead(CancellationToken stop)
    {
        var snapshot = Current;
        var start = new byte[4096];
        foreach (var slot in snapshot.Archives.Values)
        {
            if (stop.IsCancellationRequested || !ReferenceEquals(Current, snapshot))
                return;
            try
            {
                if (AcquireArchive(snapshot, slot) is not { } served)
                    continue;
                try
                {
                    // Its first bytes too, as the game reads them first (a CPK's header): the read path warm, the original's start cached.
                    served.File.Read(0, start);
                }
                finally
                {
                    served.Release();
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException or Core.Formats.ArchiveFormatException)
            {
                _logger.LogDebug("building {Archive} ahead failed ({Problem}); its first reader gets the error", slot.Route.RelativePath, e.Message);
            }
        }
    }
}
