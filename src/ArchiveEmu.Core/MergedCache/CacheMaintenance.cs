using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>The outcome of checking one entry.</summary>
internal sealed record VerifyResult(CacheEntry Entry, string? Problem)
{
    public bool Ok => Problem is null;
}

/// <summary>What <c>gc</c> did: entries removed for age or damage (<paramref name="Expired"/>) and, least recently used first, over the size cap (<paramref name="OverCap"/>).</summary>
internal sealed record CollectResult(int Expired, int Kept, long BytesBefore, long BytesAfter, int OverCap = 0);

internal sealed partial class MergedFileCache
{
    /// <summary>
    /// Reads every blob and chunk and checks its hash; damaged entries are dropped from the index, and the merged extents
    /// found whole are recorded as verified (readers then skip their hashes until the pack changes or the machine restarts).
    /// </summary>
    /// <param name="progress">Gets (entries checked, entries) after each entry.</param>
    public IReadOnlyList<VerifyResult> Verify(Action<int, int>? progress = null)
    {
        var whole = new List<(MergedExtent, FileIdentity)>();
        var entries = ReadIndex().Entries;
        var results = new VerifyResult[entries.Count];
        for (int i = 0; i < entries.Count; i++)
        {
            results[i] = new VerifyResult(entries[i], Check(entries[i], whole));
            progress?.Invoke(i + 1, entries.Count);
        }
        var damaged = results.Where(r => !r.Ok).Select(r => r.Entry.Key).ToHashSet();
        var known = VerifiedExtents.Load(Folder, Boot);
        bool newlyVerified = whole.Any(w => !known.Covers(w.Item1.Chunks.Pack, w.Item2, Span(w.Item1)));
        if ((damaged.Count > 0 || newlyVerified) && Directory.Exists(Folder))
        {
            try
            {
                using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, WaitNotice);
                if (damaged.Count > 0)
                {
                    var index = ReadIndex();
                    index.Entries.RemoveAll(e => damaged.Contains(e.Key));
                    Commit(index);
                }
                if (newlyVerified)
                    RecordChecked(whole);
            }
            catch (IOException e) when (damaged.Count == 0)
            {
                // a read-only cache is verified all the same; what was found whole just cannot be recorded
                Warn($"{Folder}: could not record the extents verified ({e.Message})");
            }
        }
        return results;
    }

    /// <summary>Null if the entry is whole, else what is wrong; a merged extent found whole is added to <paramref name="whole"/> with its pack's identity when read.</summary>
    private string? Check(CacheEntry entry, List<(MergedExtent, FileIdentity)>? whole = null)
    {
        try
        {
            _packs.ReadBlob(entry.Layout);
            if (entry.Merged is { } merged)
            {
                if (merged.Length != entry.Length)
                    throw new InvalidDataException($"merged copy of {merged.Length} bytes for a {entry.Length}-byte archive");
                var table = ChunkTable.Deserialize(_packs.ReadBlob(merged.Table), merged);
                using var handle = File.OpenHandle(_packs.PathOf(merged.Chunks.Pack), FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
                var identity = FileIdentity.Of(handle); // before reading: a change while it reads moves the identity, and nothing is recorded
                var bytes = new byte[Math.Min(merged.Length, 1 << 20)];
                using var source = new MergedSource(handle, _packs.PathOf(merged.Chunks.Pack), merged.Chunks.Offset, table,
                    () => throw new InvalidDataException("damaged"), _ => { });
                for (long at = 0; at < merged.Length; at += bytes.Length)
                    source.ReadExactly(at, bytes.AsSpan(0, (int)Math.Min(bytes.Length, merged.Length - at)));
                whole?.Add((merged, identity));
            }
            return null;
        }
        catch (Exception e) when (e is InvalidDataException or IOException)
        {
            return e.Message;
        }
    }

    /// <summary>
    /// Removes entries unused for longer than <paramref name="maxAge"/>, then, with <paramref name="maxBytes"/>, the least recently used
    /// until the rest take at most that many bytes (an entry a live mount serves is never removed: <see cref="LiveUse"/>); then compacts:
    /// live blobs are copied into a fresh pack, the index is committed, and the old packs are deleted (a reader that
    /// still has one open keeps reading it; the file goes away when it closes).
    /// </summary>
    public CollectResult Collect(TimeSpan maxAge, long? maxBytes = null)
    {
        if (!Directory.Exists(Folder))
            return new CollectResult(0, 0, 0, 0);
        using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, WaitNotice);
        var index = ReadIndex();
        var cutoff = DateTime.UtcNow - maxAge;
        var whole = new List<(MergedExtent, FileIdentity)>();
        var inUse = LiveUse.KeysInUse(Folder); // what a live mount serves stays, however long ago it was opened
        var live = index.Entries.Where(e => (inUse.Contains(e.Key) || LastUsed(e) >= cutoff) && Check(e, whole) is null).ToList();
        int overCap = maxBytes is { } cap ? DropOverCap(live, cap, inUse) : 0;
        var checkedAt = new Dictionary<MergedExtent, FileIdentity>();
        foreach (var (merged, identity) in whole)
            checkedAt.TryAdd(merged, identity);
        int expired = index.Entries.Count - live.Count - overCap;
        var oldPacks = _packs.Names().ToArray();
        long before = oldPacks.Sum(p => new FileInfo(_packs.PathOf(p)).Length);

        var moved = new List<CacheEntry>();
        var copiedWhole = new List<MergedExtent>();
        (string Name, FileIdentity Before, FileIdentity After)? newPack = null;
        if (live.Count > 0)
        {
            var (pack, stream) = _packs.CreateNext();
            using (stream)
            {
                var created = FileIdentity.Of(stream.SafeFileHandle);
                foreach (var e in live)
                    moved.Add(Copy(e, pack, stream, checkedAt, copiedWhole));
                stream.Flush(flushToDisk: true);
                newPack = (pack, created, FileIdentity.Of(stream.SafeFileHandle));
            }
        }
        Commit(new CacheIndex(moved));
        var keep = moved.SelectMany(e => new[] { e.Layout.Pack, e.Merged?.Chunks.Pack }).ToHashSet();
        foreach (var p in oldPacks.Where(p => !keep.Contains(p)))
            File.Delete(_packs.PathOf(p));
        if (newPack is { } made)
            RecordCopies(made.Name, made.Before, made.After, copiedWhole);
        var liveKeys = moved.Select(e => e.Key).ToHashSet();
        var used = Path.Combine(Folder, "used");
        if (Directory.Exists(used))
            foreach (var marker in Directory.EnumerateFiles(used).Where(m => !liveKeys.Contains(Path.GetFileName(m))))
                File.Delete(marker);
        CollectDecoded(cutoff);
        long after = _packs.Names().Sum(p => new FileInfo(_packs.PathOf(p)).Length);
        return new CollectResult(expired, moved.Count, before, after, overCap);
    }

    /// <summary>Bytes an entry takes in a pack: its layout and, when merged, its chunks and chunk table.</summary>
    internal static long StoredBytes(CacheEntry e) => e.Layout.Length + (e.Merged is { } m ? m.Chunks.Length + m.Table.Length : 0);

    /// <summary>The size cap a build and a mount keep the packs under unless told otherwise: a few GB, for a Steam Deck's small disk.</summary>
    public const long DefaultMaxBytes = 4L << 30;

    /// <summary>The default <c>gc</c> age: entries unused for longer go.</summary>
    public static readonly TimeSpan DefaultMaxAge = TimeSpan.FromDays(14);

    /// <summary>
    /// With <paramref name="maxBytes"/> for the packs: a <see cref="Collect"/> with it and <see cref="DefaultMaxAge"/> when the packs
    /// take more (the cap a build and a mount apply themselves); null when they fit.
    /// </summary>
    public CollectResult? KeepUnder(long maxBytes) => PackBytes() > maxBytes ? Collect(DefaultMaxAge, maxBytes) : null;

    // Removes from live the least recently used entries until the rest fit in cap, skipping those a live mount serves; how many went.
    private int DropOverCap(List<CacheEntry> live, long cap, HashSet<string> inUse)
    {
        long total = live.Sum(StoredBytes);
        int dropped = 0;
        foreach (var e in live.OrderBy(LastUsed).ThenBy(e => e.CreatedUtc).ToList())
        {
            if (total <= cap)
                break;
            if (inUse.Contains(e.Key))
                continue;
            live.Remove(e);
            total -= StoredBytes(e);
            dropped++;
        }
        return dropped;
    }

    // Copies an entry's blobs verbatim (they were verified just before) into the new pack. The copy of a merged extent
    // is added to copiedWhole when its source pack still has the identity it had when checked: the bytes copied are those.
    private CacheEntry Copy(CacheEntry e, string pack, FileStream stream, Dictionary<MergedExtent, FileIdentity> checkedAt,
        List<MergedExtent> copiedWhole)
    {
        var layout = PackFiles.Append(pack, stream, _packs.ReadBlob(e.Layout));
        if (e.Merged is not { } merged)
            return e with { Layout = layout };
        long start = stream.Position;
        bool unchanged;
        using (var source = new FileStream(_packs.PathOf(merged.Chunks.Pack), FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete))
        {
            source.Position = merged.Chunks.Offset;
            var buffer = new byte[1 << 20];
            for (long left = merged.Chunks.Length; left > 0;)
            {
                int n = source.Read(buffer, 0, (int)Math.Min(buffer.Length, left));
                if (n == 0)
                    throw new IOException($"{_packs.PathOf(merged.Chunks.Pack)}: pack ended while compacting");
                stream.Write(buffer, 0, n);
                left -= n;
            }
            unchanged = checkedAt.TryGetValue(merged, out var identity) && FileIdentity.Of(source.SafeFileHandle) == identity;
        }
        var chunks = merged.Chunks with { Pack = pack, Offset = start };
        var table = PackFiles.Append(pack, stream, _packs.ReadBlob(merged.Table));
        var copy = merged with { Chunks = chunks, Table = table };
        if (unchanged)
            copiedWhole.Add(copy);
        return e with { Layout = layout, Merged = copy };
    }

    /// <summary>Removes every entry and pack.</summary>
    public void Clear()
    {
        if (!Directory.Exists(Folder))
            return;
        using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, WaitNotice);
        Commit(CacheIndex.Empty);
        File.Delete(VerifiedPath);
        foreach (var p in _packs.Names())
            File.Delete(_packs.PathOf(p));
        var used = Path.Combine(Folder, "used");
        if (Directory.Exists(used))
            Directory.Delete(used, recursive: true);
        CollectDecoded(DateTime.MaxValue);
        var plans = Path.Combine(Folder, PlansFolderName);
        if (Directory.Exists(plans))
            Directory.Delete(plans, recursive: true);
    }

    /// <summary>
    /// Deletes the decoded entries (inner archives stored compressed, <see cref="EntryCodec.CacheFolderName"/>) last used
    /// before <paramref name="cutoff"/>, with their markers, and leftovers of a decode that did not finish.
    /// </summary>
    private void CollectDecoded(DateTime cutoff)
    {
        var decoded = Path.Combine(Folder, EntryCodec.CacheFolderName);
        if (!Directory.Exists(decoded))
            return;
        foreach (var file in Directory.EnumerateFiles(decoded))
        {
            var name = Path.GetFileName(file);
            var marker = Path.ChangeExtension(file, ".used");
            var lastUsed = name.EndsWith(".bin", StringComparison.Ordinal) && File.Exists(marker) ? File.GetLastWriteTimeUtc(marker) : File.GetLastWriteTimeUtc(file);
            if (lastUsed < cutoff && !name.EndsWith(".used", StringComparison.Ordinal))
            {
                File.Delete(file);
                File.Delete(marker);
            }
        }
    }

    /// <summary>
    /// Bytes every file under the cache folder takes (packs, index, kept plans, decoded entries), and the bytes free on its
    /// file system for this user (null when it cannot be asked).
    /// </summary>
    public (long Used, long? Free) DiskUse()
    {
        long used = 0;
        try
        {
            if (Directory.Exists(Folder))
                used = new DirectoryInfo(Folder).EnumerateFiles("*", new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true })
                    .Sum(f => f.Length);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a file gone while counted: what could be counted
        }
        var existing = Folder;
        while (!Directory.Exists(existing) && Path.GetDirectoryName(existing) is { } parent)
            existing = parent;
        try
        {
            return (used, new DriveInfo(existing).AvailableFreeSpace);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return (used, null);
        }
    }

    /// <summary>Bytes the packs take on disk.</summary>
    public long PackBytes() => _packs.Names().Sum(p => new FileInfo(_packs.PathOf(p)).Length);
}
