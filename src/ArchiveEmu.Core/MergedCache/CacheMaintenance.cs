namespace ArchiveEmu.Core.MergedCache;

/// <summary>The outcome of checking one entry.</summary>
public sealed record VerifyResult(CacheEntry Entry, string? Problem)
{
    public bool Ok => Problem is null;
}

/// <summary>What <c>gc</c> did.</summary>
public sealed record CollectResult(int Expired, int Kept, long BytesBefore, long BytesAfter);

public sealed partial class MergedFileCache
{
    /// <summary>Reads every blob and chunk and checks its hash; damaged entries are dropped from the index.</summary>
    public IReadOnlyList<VerifyResult> Verify()
    {
        var results = ReadIndex().Entries.Select(e => new VerifyResult(e, Check(e))).ToArray();
        var damaged = results.Where(r => !r.Ok).Select(r => r.Entry.Key).ToHashSet();
        if (damaged.Count > 0 && Directory.Exists(Folder))
        {
            using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, Warn);
            var index = ReadIndex();
            index.Entries.RemoveAll(e => damaged.Contains(e.Key));
            Commit(index);
        }
        return results;
    }

    private string? Check(CacheEntry entry)
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
                var bytes = new byte[Math.Min(merged.Length, 1 << 20)];
                using var source = new MergedSource(handle, _packs.PathOf(merged.Chunks.Pack), merged.Chunks.Offset, table,
                    () => throw new InvalidDataException("damaged"), _ => { });
                for (long at = 0; at < merged.Length; at += bytes.Length)
                    source.ReadExactly(at, bytes.AsSpan(0, (int)Math.Min(bytes.Length, merged.Length - at)));
            }
            return null;
        }
        catch (Exception e) when (e is InvalidDataException or IOException)
        {
            return e.Message;
        }
    }

    /// <summary>
    /// Removes entries unused for longer than <paramref name="maxAge"/>, then compacts: live blobs are
    /// copied into a fresh pack, the index is committed, and the old packs are deleted (a reader that
    /// still has one open keeps reading it; the file goes away when it closes).
    /// </summary>
    public CollectResult Collect(TimeSpan maxAge)
    {
        if (!Directory.Exists(Folder))
            return new CollectResult(0, 0, 0, 0);
        using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, Warn);
        var index = ReadIndex();
        var cutoff = DateTime.UtcNow - maxAge;
        var live = index.Entries.Where(e => LastUsed(e) >= cutoff && Check(e) is null).ToList();
        int expired = index.Entries.Count - live.Count;
        var oldPacks = _packs.Names().ToArray();
        long before = oldPacks.Sum(p => new FileInfo(_packs.PathOf(p)).Length);

        var moved = new List<CacheEntry>();
        if (live.Count > 0)
        {
            var (pack, stream) = _packs.CreateNext();
            using (stream)
            {
                foreach (var e in live)
                    moved.Add(Copy(e, pack, stream));
                stream.Flush(flushToDisk: true);
            }
        }
        Commit(new CacheIndex(moved));
        var keep = moved.SelectMany(e => new[] { e.Layout.Pack, e.Merged?.Chunks.Pack }).ToHashSet();
        foreach (var p in oldPacks.Where(p => !keep.Contains(p)))
            File.Delete(_packs.PathOf(p));
        var liveKeys = moved.Select(e => e.Key).ToHashSet();
        var used = Path.Combine(Folder, "used");
        if (Directory.Exists(used))
            foreach (var marker in Directory.EnumerateFiles(used).Where(m => !liveKeys.Contains(Path.GetFileName(m))))
                File.Delete(marker);
        long after = _packs.Names().Sum(p => new FileInfo(_packs.PathOf(p)).Length);
        return new CollectResult(expired, moved.Count, before, after);
    }

    // Copies an entry's blobs verbatim (they were verified just before) into the new pack.
    private CacheEntry Copy(CacheEntry e, string pack, FileStream stream)
    {
        var layout = PackFiles.Append(pack, stream, _packs.ReadBlob(e.Layout));
        if (e.Merged is not { } merged)
            return e with { Layout = layout };
        long start = stream.Position;
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
        }
        var chunks = merged.Chunks with { Pack = pack, Offset = start };
        var table = PackFiles.Append(pack, stream, _packs.ReadBlob(merged.Table));
        return e with { Layout = layout, Merged = merged with { Chunks = chunks, Table = table } };
    }

    /// <summary>Removes every entry and pack.</summary>
    public void Clear()
    {
        if (!Directory.Exists(Folder))
            return;
        using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, Warn);
        Commit(CacheIndex.Empty);
        foreach (var p in _packs.Names())
            File.Delete(_packs.PathOf(p));
        var used = Path.Combine(Folder, "used");
        if (Directory.Exists(used))
            Directory.Delete(used, recursive: true);
    }

    /// <summary>Bytes the packs take on disk.</summary>
    public long PackBytes() => _packs.Names().Sum(p => new FileInfo(_packs.PathOf(p)).Length);
}
