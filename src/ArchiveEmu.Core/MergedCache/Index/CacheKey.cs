using System.IO.Hashing;
using System.Text;
using ArchiveEmu.Core.MergedCache.Folder;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>
/// The key an entry of the merged file cache is stored under: a hash of a canonical description of everything
/// its bytes depend on (written by the serving layer, <c>Serving/RouteKey</c>). Equal keys mean equal bytes.
/// </summary>
internal sealed class CacheKey
{
    /// <param name="route">The slot: full path of the original archive, by the game folder's own path (one entry per route).</param>
    /// <param name="text">A canonical description of everything the bytes depend on.</param>
    /// <param name="folder">How the game folder is read when not by its own path (in place); stored layouts name files by its shown path.</param>
    internal CacheKey(string route, StringBuilder text, ShownFolder? folder = null)
    {
        Route = route;
        Hash = HashOf(text);
        Folder = folder;
    }

    /// <summary>Full path of the original archive by the game folder's own path: one cache slot per route.</summary>
    public string Route { get; }

    /// <summary>The game folder read through another path (<see cref="ShownFolder"/>), or null: read by its own path.</summary>
    internal ShownFolder? Folder { get; }

    /// <summary>32 lower-case hex digits of xxHash128 over the description's UTF-8 bytes.</summary>
    public string Hash { get; }

    public override string ToString() => Hash;

    /// <summary>
    /// xxHash128 of <paramref name="text"/>'s UTF-8 bytes, encoded piece by piece: the description of a route with a
    /// few hundred inputs is ~100 KB, and making it one string and one byte array per open cost ~0.7 MB of allocation,
    /// which left the CPU's caches cold for the reads right after the open (`archiveemu bench`, 4K random).
    /// </summary>
    internal static string HashOf(StringBuilder text)
    {
        var hash = new XxHash128();
        var encoder = Encoding.UTF8.GetEncoder(); // keeps a surrogate pair split across two chunks whole
        Span<byte> bytes = stackalloc byte[4096];
        foreach (var chunk in text.GetChunks())
        {
            var chars = chunk.Span;
            do
            {
                encoder.Convert(chars, bytes, flush: false, out int used, out int written, out _);
                hash.Append(bytes[..written]);
                chars = chars[used..];
            } while (!chars.IsEmpty);
        }
        encoder.Convert(ReadOnlySpan<char>.Empty, bytes, flush: true, out _, out int last, out _);
        hash.Append(bytes[..last]);
        return Convert.ToHexStringLower(hash.GetCurrentHash());
    }
}
