using System.Globalization;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>How a layout names entries: the entry a mod file's path below an archive folder targets, and whether the file deletes it.</summary>
internal delegate (EntryKey Key, bool Delete) EntryNaming(string relativePath, EntryAddressing addressing, string fullPath);

/// <summary>Turns a mod file's path below an archive folder into the entry it targets.</summary>
internal static class EntryFileName
{
    private const string DeleteSuffix = ".del";

    /// <summary>
    /// The entry key and whether the file deletes it (<c>NAME.del</c>). Index formats take the decimal
    /// number at the start of the file name (<c>7.dds</c>, <c>0007.dds</c>, <c>7_hero.dds</c>); name
    /// formats take the whole relative path.
    /// </summary>
    public static (EntryKey Key, bool Delete) Parse(string relativePath, EntryAddressing addressing, string fullPath)
    {
        bool delete = relativePath.EndsWith(DeleteSuffix, StringComparison.OrdinalIgnoreCase);
        if (addressing == EntryAddressing.ByName)
            return (EntryKey.ByName(delete ? relativePath[..^DeleteSuffix.Length] : relativePath), delete);

        if (relativePath.Contains('/'))
            throw new IOException($"{fullPath}: entries of an index-addressed archive go directly in its folder, not in a subfolder "
                + "(but for an archive inside entry 7, a folder named like the entry: 7/…, 7_name.pak/…)");
        if (IndexDigits(relativePath) == 0)
            throw new IOException($"{fullPath}: name must start with the entry's index (7.dds, 0007.dds, 7_name.dds)");
        return (EntryKey.ByIndex(IndexOf(relativePath)), delete);
    }

    /// <summary>
    /// FileEmulationFramework's naming, for PAKs reached through <c>FEmulator/PAK/</c>: name formats take the whole relative path,
    /// and there is no deletion (<c>x.del</c> is an entry named so; FEF <c>docs/emulators/pak.md</c>). FEF's docs describe no
    /// index archive inside a PAK, so those take the mirror rule (<see cref="Parse"/>).
    /// </summary>
    public static (EntryKey Key, bool Delete) ParseFef(string relativePath, EntryAddressing addressing, string fullPath) =>
        addressing == EntryAddressing.ByName ? (EntryKey.ByName(relativePath), false) : Parse(relativePath, addressing, fullPath);

    /// <summary>The index an index name (<see cref="IsIndexName"/>) addresses: <c>7_hero.dds</c> → 7.</summary>
    public static int IndexOf(string fileName) =>
        int.Parse(fileName.AsSpan(0, IndexDigits(fileName)), NumberStyles.None, CultureInfo.InvariantCulture);

    /// <summary>Whether a file name addresses an entry of an index format (<c>7.dds</c>, <c>0007.dds</c>, <c>7_hero.dds</c>, <c>42</c>).</summary>
    public static bool IsIndexName(string fileName) => IndexDigits(fileName) > 0;

    /// <summary>
    /// FileEmulationFramework's index for <c>FEmulator/AFS</c> and <c>AWB</c>: the decimal digits that start the name, whatever
    /// follows them (5.adx, 5_name.adx, 0005.adx, 5name.adx); null when none or too many.
    /// </summary>
    public static int? FefIndex(string fileName) => LeadingDigits(fileName) is var digits and > 0 and <= 9
        ? int.Parse(fileName.AsSpan(0, digits), NumberStyles.None, CultureInfo.InvariantCulture) : null;

    /// <summary>How many decimal digits start the name, if 1 to 9 ended by '.', '_' or the end of the name; else 0.</summary>
    private static int IndexDigits(string name)
    {
        int digits = LeadingDigits(name);
        bool endsWell = digits == name.Length || name[digits] is '.' or '_';
        return digits is > 0 and <= 9 && endsWell ? digits : 0;
    }

    private static int LeadingDigits(string name)
    {
        int digits = 0;
        while (digits < name.Length && char.IsAsciiDigit(name[digits]))
            digits++;
        return digits;
    }
}
