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
    /// left for the reader who asks, who gets the error; it is only logged here. With passthrough, a second pass makes the
    /// emulated archives' clones (<see cref="EmulatedClone"/>, about 0.4 s per GiB): made at the first open, the game's open would wait for it.
    /// </summary>
    public void BuildAhead(CancellationToken stop)
    {
        var snapshot = Current;
        var start = new byte[4096];
        // Its first bytes too, as the game reads them first (a CPK's header): the read path warm, the original's start cached.
        Ahead(snapshot, stop, "building", (_, served) => served.File.Read(0, start));
        // Then, once all are built and the mount is up with passthrough agreed, what is slow to make at a first open: clones.
        try
        {
            if (!_mountUp.Task.Wait(Timeout.Infinite, stop) || !_mountUp.Task.Result)
                return;
        }
        catch (OperationCanceledException)
        {
            return;
        }
        Ahead(snapshot, stop, "cloning", (slot, served) =>
            served.MakePassthroughAhead(message => _logger.LogInformation(LogDetail.Event, "{Path}: {Message}", slot.Route.RelativePath, message)));
    }

    private readonly TaskCompletionSource<bool> _mountUp = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Tells the build-ahead the mount is up, and whether the kernel agreed passthrough (what it waits for before making clones).</summary>
    public void MountIsUp(bool passesThrough) => _mountUp.TrySetResult(passesThrough);

    private void Ahead(MountSnapshot snapshot, CancellationToken stop, string doing, Action<ArchiveSlot, ServedFile> work)
    {
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
                    work(slot, served);
                }
                finally
                {
                    served.Release();
                }
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException or Core.Formats.ArchiveFormatException)
            {
                _logger.LogDebug("{Doing} {Archive} ahead failed ({Problem}); its first reader gets the error", doing, slot.Route.RelativePath, e.Message);
            }
        }
    }
}
