using System.IO.Hashing;
using System.Text;

namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// The key an entry of the merged file cache is stored under: a hash of a canonical description of everything
/// its bytes depend on (written by the serving layer, <c>Serving/RouteKey</c>). Equal keys mean equal bytes.
/// </summary>
internal sealed class CacheKey
{
    /// <param name="route">The slot: full path of the original archive (one entry per route).</param>
    /// <param name="text">A canonical description of everything the bytes depend on.</param>
    internal CacheKey(string route, string text)
    {
        Route = route;
        Text = text;
        Hash = Convert.ToHexStringLower(XxHash128.Hash(Encoding.UTF8.GetBytes(text)));
    }

    /// <summary>Full path of the original archive: one cache slot per route.</summary>
    public string Route { get; }

    /// <summary>The canonical description the hash is taken of (kept for diagnostics).</summary>
    public string Text { get; }

    /// <summary>32 lower-case hex digits of xxHash128 over <see cref="Text"/>.</summary>
    public string Hash { get; }

    public override string ToString() => Hash;
}
