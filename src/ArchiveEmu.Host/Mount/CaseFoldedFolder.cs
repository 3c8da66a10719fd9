namespace ArchiveEmu.Host.Mount;

/// <summary>
/// One folder's names, found whatever the letter case asked (<c>mount --ignore-case</c>) by Windows' rule
/// (<see cref="StringComparer.OrdinalIgnoreCase"/>: letter for letter, non-ASCII included). An exact name is always
/// itself; a spelling that matches several names only case-insensitively (possible in a Linux folder) is the first of
/// them in ordinal order, so the answer never depends on the order a listing came in. Built once from a listing.
/// </summary>
internal sealed class CaseFoldedFolder
{
    private readonly HashSet<string> _exact;
    private readonly Dictionary<string, string> _folded;

    private CaseFoldedFolder(HashSet<string> exact, Dictionary<string, string> folded)
    {
        _exact = exact;
        _folded = folded;
    }

    public static CaseFoldedFolder Of(IEnumerable<string> names)
    {
        var exact = new HashSet<string>(names, StringComparer.Ordinal);
        var folded = new Dictionary<string, string>(exact.Count, StringComparer.OrdinalIgnoreCase);
        foreach (var name in exact.Order(StringComparer.Ordinal))
            folded.TryAdd(name, name); // the first in ordinal order keeps the spelling
        return new CaseFoldedFolder(exact, folded);
    }

    /// <summary>The folder's spelling of <paramref name="name"/>: itself when it is there, else the case-insensitive match, else null.</summary>
    public string? Find(string name) => _exact.Contains(name) ? name : _folded.GetValueOrDefault(name);
}
