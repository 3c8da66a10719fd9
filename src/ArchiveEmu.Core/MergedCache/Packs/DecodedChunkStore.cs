using System.Collections.Concurrent;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>
/// Decoded LZ4 chunks of merged archives kept between opens in this process, so a second pass over an archive copies
/// instead of decoding again (as the mount's private copy does for its archives). Bounded; the oldest chunk goes first.
/// </summary>
internal sealed class DecodedChunkStore
{
    // 256 MiB: eight of the largest archives `--merge auto` merges (32 MiB), or four of the bench's 64 MiB scenarios, at a
    // cost a game machine can spare (1% of 24 GiB); capped at 1/16 of the memory .NET may use, for small machines.
    private static readonly long SharedCapacity =
        Math.Min(256L << 20, GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / 16);

    private readonly ConcurrentDictionary<ChunkKey, byte[]> _chunks = new();
    private readonly Queue<ChunkKey> _oldestFirst = new(); // guarded by _oldestFirst, as is _bytes
    private long _bytes;

    internal DecodedChunkStore(long capacity) => Capacity = capacity;

    /// <summary>The store merged archives opened through a <see cref="MergedFileCache"/> share.</summary>
    internal static DecodedChunkStore Shared { get; } = new(SharedCapacity);

    /// <summary>Forgets every decoded chunk of this process, as a new process starts (`bench --cold` before each cold pass).</summary>
    public static void ClearShared() => Shared.Clear();

    internal long Capacity { get; }

    /// <summary>Decoded bytes held now; never above <see cref="Capacity"/>.</summary>
    internal long Bytes => Interlocked.Read(ref _bytes);

    internal bool TryGet(in ChunkKey key, out byte[] bytes) => _chunks.TryGetValue(key, out bytes!);

    internal bool Contains(in ChunkKey key) => _chunks.ContainsKey(key);

    /// <summary>Keeps <paramref name="bytes"/>, which passed their hash check and which nobody writes to again.</summary>
    internal void Add(in ChunkKey key, byte[] bytes)
    {
        if (bytes.Length > Capacity)
            return;
        lock (_oldestFirst)
        {
            if (!_chunks.TryAdd(key, bytes))
                return;
            _oldestFirst.Enqueue(key);
            long held = _bytes + bytes.Length;
            while (held > Capacity && _oldestFirst.TryDequeue(out var oldest))
            {
                if (_chunks.TryRemove(oldest, out var gone))
                    held -= gone.Length;
            }
            Interlocked.Exchange(ref _bytes, held);
        }
    }

    internal void Clear()
    {
        lock (_oldestFirst)
        {
            _chunks.Clear();
            _oldestFirst.Clear();
            Interlocked.Exchange(ref _bytes, 0);
        }
    }
}

/// <summary>
/// What names a decoded chunk's bytes: the pack as it was when the archive was opened (a rebuilt or compacted pack, even
/// one reusing the inode, has another size, mtime or ctime), the extent's place in it (packs only grow, so a rebuilt
/// archive has another extent), the chunk, and the hash its decoded bytes were checked against.
/// </summary>
internal readonly record struct ChunkKey(FileIdentity Pack, long ExtentOffset, int Index, ulong Hash);
