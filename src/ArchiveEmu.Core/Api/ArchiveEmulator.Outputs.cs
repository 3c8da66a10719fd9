using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
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
            var kept = _built.GetValueOrDefault(name);
            var served = Server().Serve(Resolve(name), new ServeRequest { OpenFile = true, KeepArchive = kept is null, Kept = kept });
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
            return Built(name, Resolve(name)).Entries
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
        Merge(route, (_compression ??= CompressionDecision.Make(_options.Compression, Cache.Folder, _options.CodecProbes)).Compression);
    }

    /// <summary>As <see cref="Merge(string)"/>, stored with <paramref name="compression"/> whatever the options say.</summary>
    public void Merge(string route, ChunkCompression compression)
    {
        var name = RouteName(route);
        Change(name, RouteChangeReason.Merged, () =>
        {
            if (Cache is null)
                throw new InvalidOperationException("this emulator has no cache folder (ArchiveEmulatorOptions.CacheFolder)");
            Server().Serve(Resolve(name), new ServeRequest { Merge = MergePolicy.Always, Compression = compression, Kept = _built.GetValueOrDefault(name) });
        });
    }

    private EmulatedArchive Built(string name, ArchiveRoute resolved)
    {
        if (!_built.TryGetValue(name, out var archive))
            _built[name] = archive = Server().Build(resolved);
        return archive;
    }

    // The mods as they are now: the key records them, and AddModFolder/RemoveModFolder change them.
    private ArchiveServer Server() => new(GameFolder, _mods.ToArray(), Cache, _pool, _verifyContent);

    // The route as mod folders and inputs make it now. Inputs added in code win over mod folders (reported as a conflict).
    private ArchiveRoute Resolve(string name)
    {
        var fromMods = ModPlan().FindArchive(name);
        var format = FormatOf(name);
        var slice = _slices.TryGetValue(name, out var s) ? s.Source : null;
        var gamePath = fromMods?.GamePath ?? slice?.Path ?? GamePaths.Resolve(GameFolder, name);
        var changes = fromMods?.Patch.Changes.ToList() ?? new List<EntryChange>();
        var conflicts = fromMods?.Conflicts.ToList() ?? new List<RouteConflict>();
        var nested = fromMods?.Nested.ToList() ?? new List<NestedRoute>();
        foreach (var input in _inputs.Where(i => i.Route == name))
        {
            RequireUnchanged(input);
            int inside = nested.FindIndex(n => SameEntry(format, n.Entry, input.Entry));
            if (inside >= 0) // an input for an entry mods change inside: the input wins the entry whole
            {
                conflicts.Add(new RouteConflict(name, input.Entry.ToString(), [nested[inside].Origin, input.Origin], input.Origin));
                nested.RemoveAt(inside);
            }
            int at = changes.FindIndex(c => SameEntry(format, c.Key, input.Entry));
            var change = new EntryChange(input.Entry, input.Input, input.Origin);
            if (at < 0)
            {
                changes.Add(change);
                continue;
            }
            conflicts.Add(new RouteConflict(name, input.Entry.ToString(), [changes[at].Origin, input.Origin], input.Origin));
            changes[at] = change;
        }
        // A route that follows another follows it with the leader's inputs too.
        var follows = fromMods?.Follows is { } leader ? Resolve(leader.RelativePath) : null;
        return new ArchiveRoute(name, gamePath, format, new ArchivePatch(changes), conflicts, slice) { Nested = nested, Follows = follows };
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
