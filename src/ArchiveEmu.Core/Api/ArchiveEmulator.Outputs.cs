using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core;

public sealed partial class ArchiveEmulator
{
    /// <summary>
    /// The emulated archive at <paramref name="route"/> as it is now — from the merged cache when it holds a fresh
    /// copy, else built (once, then kept until something changes). The caller disposes it; it never changes.
    /// </summary>
    public VirtualFile Open(string route)
    {
        var name = RouteName(route);
        lock (_lock)
        {
            ThrowIfDisposed();
            var (game, resolved) = Resolve(name);
            var kept = _built.GetValueOrDefault(name);
            var served = game.Serve(resolved, new ServeRequest { OpenFile = true, KeepArchive = kept is null, Kept = kept });
            // Kept only when parsed: a stored layout has no EntryInput for Describe to report.
            if (served.Archive is { } archive && served.Layout == LayoutOrigin.Parsed)
                _built[name] = archive;
            else
                served.Archive?.Dispose();
            return served.File!;
        }
    }

    /// <summary>The emulated archive at <paramref name="route"/> as a read-only, seekable <see cref="Stream"/>. The caller disposes it.</summary>
    public Stream OpenStream(string route) => new VirtualFileStream(Open(route), ownsFile: true);

    /// <summary>Every entry of the emulated archive at <paramref name="route"/> and what produced it: the original, a mod folder, or an input added in code.</summary>
    public IReadOnlyList<EntryOrigin> Describe(string route)
    {
        var name = RouteName(route);
        lock (_lock)
        {
            ThrowIfDisposed();
            return Built(name).Entries
                .Select(e => new EntryOrigin(e.Index, e.Name, e.Size, e.State, e.Origin, e.Input)).ToArray();
        }
    }

    /// <summary>
    /// Packs the emulated archive at <paramref name="route"/> into the merged file cache (one contiguous extent, raw or
    /// LZ4 as <see cref="ArchiveEmulatorOptions.Compression"/> decides), so later opens read one blob instead of many files.
    /// Needs <see cref="ArchiveEmulatorOptions.CacheFolder"/>.
    /// </summary>
    public void Merge(string route)
    {
        if (Cache is null)
            throw new InvalidOperationException("this emulator has no cache folder (ArchiveEmulatorOptions.CacheFolder)");
        CompressionDecision decision;
        lock (_lock)
        {
            ThrowIfDisposed();
            decision = _compression ??= Game().Compression!;
        }
        Merge(route, decision.Compression);
    }

    /// <summary>As <see cref="Merge(string)"/>, stored with <paramref name="compression"/> whatever the options say.</summary>
    public void Merge(string route, ChunkCompression compression)
    {
        var name = RouteName(route);
        Change(name, RouteChangeReason.Merged, () =>
        {
            if (Cache is null)
                throw new InvalidOperationException("this emulator has no cache folder (ArchiveEmulatorOptions.CacheFolder)");
            var (game, resolved) = Resolve(name);
            game.Serve(resolved, new ServeRequest { Merge = MergePolicy.Always, Compression = compression, Kept = _built.GetValueOrDefault(name) });
        });
    }

    private EmulatedArchive Built(string name)
    {
        var (game, resolved) = Resolve(name);
        if (!_built.TryGetValue(name, out var archive))
            _built[name] = archive = game.Build(resolved);
        return archive;
    }

    // The game as it is now and the route in it: the one mods and inputs change, else the archive as shipped. A file input
    // of the route, or of the route it follows, that changed since it was added is an error, not bytes from another version.
    private (EmulatedGame Game, ArchiveRoute Route) Resolve(string name)
    {
        var game = Game();
        var route = game.RouteOf(name);
        for (var r = route; r is not null; r = r.Follows)
        {
            foreach (var input in _inputs.Where(i => i.Route == r.RelativePath))
                RequireUnchanged(input);
        }
        return (game, route);
    }

    // A file input that changed or vanished since it was added is an error naming it, not bytes from another version.
    private static void RequireUnchanged(EmulatorInput input)
    {
        if (input.Input is not { Path: { } path, Identity: { } identity })
            return;
        FileIdentity? now;
        try
        {
            now = FileIdentity.Of(path); // one stat; a missing file throws
        }
        catch (FileNotFoundException)
        {
            now = null;
        }
        if (now != identity)
            throw new IOException(now is null
                ? $"{path}: input for {input.Route} entry {input.Entry} vanished since it was added"
                : $"{path}: input for {input.Route} entry {input.Entry} changed since it was added (call Invalidate to take the new version)");
    }
}
