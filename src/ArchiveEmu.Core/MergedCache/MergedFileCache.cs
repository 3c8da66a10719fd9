using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;
using K4os.Compression.LZ4;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>How merged chunks are stored.</summary>
public enum ChunkCompression { None, Lz4 }

/// <summary>Settings of a <see cref="MergedFileCache"/>.</summary>
/// <param name="ChunkSize">Uncompressed bytes per independently stored chunk.</param>
/// <param name="LockTimeout">How long a writer waits for another writer to finish (said through <paramref name="Warn"/> when a wait starts).</param>
/// <param name="Warn">Where warnings go (a damaged index or pack, a wait for another writer); nothing is thrown for them.</param>
/// <param name="RecordsLiveUse">Whether this process's uses are recorded as live (<see cref="LiveUse"/>: a mount), so a size-capped gc keeps them.</param>
/// <param name="Waiting">Where a wait for another writer is said, at once (a person is waiting); <paramref name="Warn"/> when null.
/// Apart because a command may collect its warnings for a report at its end (build), while a wait must be said as it starts.</param>
internal sealed record CacheOptions(int ChunkSize = 64 * 1024, TimeSpan? LockTimeout = null, Action<string>? Warn = null, bool RecordsLiveUse = false,
    Action<string>? Waiting = null)
{
    public TimeSpan WriterWait => LockTimeout ?? TimeSpan.FromMinutes(2);
}

/// <summary>
/// The merged file cache (docs/DESIGN.md, "Merged file cache"): per emulated archive, under a key of everything its
/// bytes depend on, its layout and optionally its merged bytes as one contiguous extent in a pack. Readers
/// take no lock and never get a stale or damaged byte: a stale key is a miss, a damaged entry is dropped
/// with a warning and served by emulation. Writers commit the index atomically, one at a time.
/// </summary>
internal sealed partial class MergedFileCache
{
    private readonly PackFiles _packs;
    private readonly CacheOptions _options;

    public MergedFileCache(string folder, CacheOptions? options = null)
    {
        Folder = Path.GetFullPath(folder);
        if (CacheFolderAccess.WhyNoFolder(Folder) is { } problem) // a file named by mistake: nothing could be read or stored
            throw new IOException($"{Folder}: the cache folder {problem}; give the cache a folder of its own");
        _options = options ?? new CacheOptions();
        if (_options.ChunkSize is < 4096 or > 1 << 24)
            throw new ArgumentOutOfRangeException(nameof(options), "chunk size must be 4 KiB to 16 MiB");
        _packs = new PackFiles(Folder);
        _live = _options.RecordsLiveUse ? new LiveUse(Folder) : null;
    }

    private readonly LiveUse? _live;

    /// <summary>Ends the record of this process's uses as live (<see cref="CacheOptions.RecordsLiveUse"/>): a mount that stops.</summary>
    internal void EndLiveUse() => _live?.Dispose();

    /// <summary>The per-user default: $XDG_CACHE_HOME/archiveemu, else ~/.cache/archiveemu.</summary>
    public static string DefaultFolder()
    {
        var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
        var root = !string.IsNullOrEmpty(xdg) && Path.IsPathRooted(xdg)
            ? xdg
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache");
        return Path.Combine(root, "archiveemu");
    }

    public string Folder { get; }

    /// <summary>The folder under the cache folder holding kept route plans (Serving/Plans: docs/DESIGN.md, "Route plans kept"), which <c>clear</c> deletes.</summary>
    internal const string PlansFolderName = "plans";

    /// <summary>How merged archives opened here bring their packs into the page cache (`benchmarks coldmerged` turns it off).</summary>
    internal PageCacheStreaming Streaming { get; init; } = PageCacheStreaming.ForMergedPacks;

    private string IndexPath => Path.Combine(Folder, "index.bin");

    internal void Warn(string message) => _options.Warn?.Invoke(message);

    /// <summary>Says a wait for another writer as it starts (<see cref="CacheOptions.Waiting"/>).</summary>
    internal void WaitNotice(string message) => (_options.Waiting ?? _options.Warn)?.Invoke(message);

    /// <summary>The index as committed now. Missing is empty; damaged is empty with a warning (the next write replaces it).</summary>
    internal CacheIndex ReadIndex()
    {
        byte[] bytes;
        try
        {
            bytes = ReadSharingDelete(IndexPath);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return CacheIndex.Empty;
        }
        if (CacheIndex.OtherVersion(bytes) is { } version)
        {
            Warn($"{IndexPath}: written by another ArchiveEmu version (cache format {version}; this one uses {CacheFormat.Version}); the cache starts afresh");
            return CacheIndex.Empty;
        }
        try
        {
            return CacheIndex.Deserialize(bytes);
        }
        catch (InvalidDataException e)
        {
            Warn($"{IndexPath}: cache index is damaged ({e.Message}); treating the cache as empty");
            return CacheIndex.Empty;
        }
    }

    /// <summary>Every entry as committed now (missing or damaged index: none).</summary>
    public IReadOnlyList<CacheEntry> Entries() => ReadIndex().Entries;

    /// <summary>The entry stored under <paramref name="key"/>, or null (a miss).</summary>
    internal CacheEntry? Find(CacheKey key) => ReadIndex().Find(key.Hash);

    /// <summary>
    /// Rebuilds the emulated archive from the entry's layout; null (after a warning and dropping the entry) if it is damaged.
    /// <paramref name="folder"/>: how this process reads the game folder when not by its own path (the layout names files by that).
    /// </summary>
    internal EmulatedArchive? TryOpenLayout(CacheEntry entry, FileHandlePool? pool = null, ShownFolder? folder = null)
    {
        byte[] bytes;
        try
        {
            bytes = _packs.ReadBlob(entry.Layout);
        }
        catch (InvalidDataException e)
        {
            DropDamaged(entry, e.Message);
            return null;
        }
        Touch(entry.Key);
        EmulatedArchive archive;
        try
        {
            archive = ArchiveLayout.Deserialize(bytes, pool, folder);
        }
        catch (Exception e) when (e is InvalidDataException or EndOfStreamException or ArgumentException)
        {
            DropDamaged(entry, $"layout does not parse ({e.Message})");
            return null;
        }
        if (archive.File.Length != entry.Length) // a layout that parses but is not this entry's archive (found by CacheFuzzTests)
        {
            archive.Dispose();
            DropDamaged(entry, $"layout describes {archive.File.Length} bytes, the entry {entry.Length}");
            return null;
        }
        return archive;
    }

    /// <summary>
    /// The merged bytes of <paramref name="entry"/> as a virtual file, or null if it has none or its chunk
    /// table is damaged. Chunk damage found while reading switches to <paramref name="emulate"/>.
    /// </summary>
    internal VirtualFile? TryOpenMerged(CacheEntry entry, Func<VirtualFile> emulate)
    {
        if (entry.Merged is not { } merged)
            return null;
        if (merged.Length != entry.Length) // served at merged.Length, but emulation (the fallback) gives entry.Length
        {
            DropDamaged(entry, $"merged copy of {merged.Length} bytes for a {entry.Length}-byte archive");
            return null;
        }
        ChunkTable table;
        Microsoft.Win32.SafeHandles.SafeFileHandle handle;
        FileIdentity pack;
        try
        {
            table = ChunkTable.Deserialize(_packs.ReadBlob(merged.Table), merged);
            // SequentialScan (FADV_SEQUENTIAL, a larger readahead): a merged entry exists to be read whole
            handle = File.OpenHandle(_packs.PathOf(merged.Chunks.Pack), FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete,
                FileOptions.SequentialScan);
        }
        catch (Exception e) when (e is InvalidDataException or FileNotFoundException)
        {
            DropDamaged(entry, e.Message);
            return null;
        }
        try
        {
            pack = FileIdentity.Of(handle); // the one fstat of the open: the pack this handle reads, whatever its path is now
            if (merged.Chunks.Offset + merged.Chunks.Length > pack.Length)
                throw new InvalidDataException($"{_packs.PathOf(merged.Chunks.Pack)}: pack is shorter than its index says ({pack.Length} bytes, the extent ends at {merged.Chunks.Offset + merged.Chunks.Length})");
        }
        catch (InvalidDataException e)
        {
            handle.Dispose();
            DropDamaged(entry, e.Message);
            return null;
        }
        Touch(entry.Key);
        var source = new MergedSource(handle, _packs.PathOf(merged.Chunks.Pack), merged.Chunks.Offset, table, emulate,
            reason => DropDamaged(entry, reason), trusted: IsVerified(merged, pack), decoded: DecodedChunkStore.Shared,
            packIdentity: pack, streaming: Streaming);
        return VirtualFile.OverSource(source, merged.Length, source);
    }

    /// <summary>The pack file holding <paramref name="extent"/> (for tools that drop its pages or trace reads of it).</summary>
    public string PathOf(CacheExtent extent) => _packs.PathOf(extent.Pack);

    /// <summary>The chunk table of a merged extent, hash-checked (for tools that model or measure its reads).</summary>
    public ChunkTable ReadChunkTable(MergedExtent merged) => ChunkTable.Deserialize(_packs.ReadBlob(merged.Table), merged);

    /// <summary>
    /// Stores <paramref name="archive"/>'s layout under <paramref name="key"/>, and its bytes too when
    /// <paramref name="merge"/>. An entry already holding what is asked is kept. Older entries of the
    /// same route are replaced. <paramref name="progress"/> gets (bytes merged, total).
    /// </summary>
    internal CacheEntry Store(CacheKey key, EmulatedArchive archive, bool merge, ChunkCompression compression,
        Action<long, long>? progress = null)
    {
        PrivateFiles.CreateFolder(Folder);
        using var writer = CacheWriterLock.Acquire(Folder, _options.WriterWait, WaitNotice);
        var index = ReadIndex();
        if (index.Find(key.Hash) is { } existing && (existing.Merged is not null || !merge))
        {
            Touch(existing.Key);
            return existing;
        }

        var (pack, stream) = _packs.OpenForAppend();
        CacheEntry entry;
        FileIdentity before, after;
        using (stream)
        {
            before = FileIdentity.Of(stream.SafeFileHandle);
            long start = stream.Position;
            try
            {
                var layout = PackFiles.Append(pack, stream, ArchiveLayout.Serialize(archive, key.Folder));
                var merged = merge ? WriteMerged(pack, stream, archive.File, compression, progress) : null;
                stream.Flush(flushToDisk: true); // the bytes are durable before any index points at them
                entry = new CacheEntry(key.Hash, key.Route, archive.Original.Format.Name, archive.File.Length, DateTime.UtcNow, layout, merged);
            }
            catch (IOException e) when (CacheFolderAccess.IsFull(e))
            {
                GiveBack(stream, start); // a full disk keeps no half-written blob
                throw;
            }
            after = FileIdentity.Of(stream.SafeFileHandle);
        }
        index.Entries.RemoveAll(e => e.Key == key.Hash || e.Route == key.Route);
        index.Entries.Add(entry);
        Commit(index);
        RecordAppend(pack, before, after, entry.Merged); // after the commit: a crash before it leaves the extent unchecked-for, never trusted wrongly
        Touch(entry.Key);
        return entry;
    }

    // Cuts a failed append off the pack: no index ever pointed past `length` (the writer lock is held), so no reader can
    // hold an extent there, and on a full disk the space is what the next writer needs. Best effort: the bytes are dead
    // either way (OpenForAppend appends after them).
    private static void GiveBack(FileStream stream, long length)
    {
        try
        {
            stream.SetLength(length);
        }
        catch (IOException)
        {
        }
    }

    private MergedExtent WriteMerged(string pack, FileStream stream, VirtualFile file, ChunkCompression compression, Action<long, long>? progress)
    {
        int chunkSize = _options.ChunkSize;
        int count = ChunkTable.ChunkCount(file.Length, chunkSize);
        var lengths = new int[count];
        var codecs = new ChunkCodec[count];
        var hashes = new ulong[count];
        var raw = new byte[chunkSize];
        var packed = new byte[LZ4Codec.MaximumOutputSize(chunkSize)];
        long start = stream.Position;
        for (int i = 0; i < count; i++)
        {
            int length = (int)Math.Min(chunkSize, file.Length - (long)i * chunkSize);
            file.ReadExactly((long)i * chunkSize, raw.AsSpan(0, length));
            hashes[i] = ChunkTable.Hash(raw.AsSpan(0, length));
            int encoded = compression == ChunkCompression.Lz4 ? LZ4Codec.Encode(raw, 0, length, packed, 0, packed.Length, LZ4Level.L00_FAST) : -1;
            bool shrank = encoded > 0 && encoded < length; // a chunk that does not shrink is stored raw
            codecs[i] = shrank ? ChunkCodec.Lz4 : ChunkCodec.Raw;
            lengths[i] = shrank ? encoded : length;
            stream.Write(shrank ? packed : raw, 0, lengths[i]);
            progress?.Invoke((long)i * chunkSize + length, file.Length);
        }
        var chunks = new CacheExtent(pack, start, stream.Position - start, "");
        var table = new ChunkTable(chunkSize, file.Length, lengths, codecs, hashes);
        var tableExtent = PackFiles.Append(pack, stream, table.Serialize());
        return new MergedExtent(file.Length, compression == ChunkCompression.Lz4 ? "lz4" : "none", chunkSize, chunks, tableExtent);
    }

    /// <summary>Writes the index atomically: a temp file, flushed to disk, renamed over the old one, the folder flushed.</summary>
    private void Commit(CacheIndex index) => WriteDurably(IndexPath, index.Serialize());

    /// <summary>Replaces <paramref name="path"/> with <paramref name="bytes"/> atomically and durably: temp file, fsync, rename, folder fsync.</summary>
    private void WriteDurably(string path, byte[] bytes)
    {
        var temp = $"{path}.{Environment.ProcessId}.tmp";
        try
        {
            using var stream = PrivateFiles.Open(temp, FileMode.Create, FileAccess.Write, FileShare.None);
            stream.Write(bytes);
            stream.Flush(flushToDisk: true);
        }
        catch (IOException)
        {
            File.Delete(temp); // a full disk leaves no half-written temp file beside the index
            throw;
        }
        ReplaceAtomically(temp, path);
        DirectorySync.Flush(Folder); // the rename itself durable, not only the bytes it points at
    }

    /// <summary>
    /// Reads a whole file sharing read, write and delete: on Windows a rename over a file fails while anyone holds it
    /// open without delete sharing, so a reader of the index (or of verified.bin) must never stop a writer's commit.
    /// </summary>
    internal static byte[] ReadSharingDelete(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1);
        var bytes = new byte[stream.Length];
        stream.ReadExactly(bytes);
        return bytes;
    }

    /// <summary>
    /// Renames a written temp file over <paramref name="target"/> (index.bin, verified.bin). On Windows another program (a
    /// virus scanner, a search indexer, an older archiveemu) may hold the target for a moment without delete sharing, which
    /// refuses the rename: retried for up to two seconds. On Linux a rename is never refused for an open file.
    /// </summary>
    private static void ReplaceAtomically(string temp, string target)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(2);
        while (true)
        {
            try
            {
                File.Move(temp, target, overwrite: true);
                return;
            }
            catch (Exception e) when (OperatingSystem.IsWindows() && e is IOException or UnauthorizedAccessException
                                      && DateTime.UtcNow < deadline)
            {
                Thread.Sleep(50);
            }
        }
    }

    /// <summary>Drops a damaged entry if no other writer is busy (otherwise the next writer or <c>verify</c> will), with a warning.</summary>
    private void DropDamaged(CacheEntry entry, string reason)
    {
        Warn($"cache entry for {entry.Route} is damaged ({reason}); dropped it, serving by emulation");
        try
        {
            using var writer = CacheWriterLock.TryAcquire(Folder, TimeSpan.Zero);
            if (writer is null)
                return;
            var index = ReadIndex();
            if (index.Entries.RemoveAll(e => e.Key == entry.Key) > 0)
                Commit(index);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Warn($"{Folder}: could not drop the damaged entry ({e.Message})");
        }
    }

    private string UsedPath(string key) => Path.Combine(Folder, "used", key);

    /// <summary>Records a use for expiry: the mtime of an empty marker file (no index write, no lock).</summary>
    private void Touch(string key)
    {
        _live?.Record(key);
        try
        {
            var path = UsedPath(key);
            if (!File.Exists(path))
            {
                PrivateFiles.CreateFolder(Path.GetDirectoryName(path)!);
                PrivateFiles.Open(path, FileMode.Create, FileAccess.Write, FileShare.ReadWrite).Dispose();
            }
            else
                File.SetLastWriteTimeUtc(path, DateTime.UtcNow);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a read-only cache still serves; it just cannot record use
        }
    }

    /// <summary>When the entry was last used (stored or served), or its creation time if never recorded.</summary>
    public DateTime LastUsed(CacheEntry entry)
    {
        var path = UsedPath(entry.Key);
        return File.Exists(path) ? File.GetLastWriteTimeUtc(path) : entry.CreatedUtc;
    }
}
