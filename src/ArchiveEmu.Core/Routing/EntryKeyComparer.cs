using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Entry keys as one archive compares them: an index equals only the same index, a name only a name equal by the format's
/// <paramref name="names"/> (letter case aside in most formats), never an index and a name.
/// </summary>
internal sealed class EntryKeyComparer(StringComparer names) : IEqualityComparer<EntryKey>
{
    public bool Equals(EntryKey x, EntryKey y) => x.IsIndex ? y.IsIndex && x.Index == y.Index : !y.IsIndex && names.Equals(x.Name, y.Name);

    public int GetHashCode(EntryKey key) => key.IsIndex ? key.Index : names.GetHashCode(key.Name!);
}
