namespace ArchiveEmu.Core.Formats;

// The words a mod loader addresses entries with and reads them back in (ArchiveEmulator inputs, Describe).

/// <summary>Addresses an entry: by index (AFS, AWB, an ID-only CPK's ID) or by name (the other formats): see <see cref="EntryAddressing"/>.</summary>
public readonly record struct EntryKey(int Index, string? Name)
{
    public static EntryKey ByIndex(int index) => new(index, null);
    public static EntryKey ByName(string name) => new(-1, name);
    public bool IsIndex => Name is null;
    public override string ToString() => Name ?? Index.ToString(System.Globalization.CultureInfo.InvariantCulture);
}

/// <summary>How an archive's entries are addressed, by mod folders and by inputs added in code.</summary>
public enum EntryAddressing
{
    /// <summary>By decimal index at the start of the file name (AFS, AWB, an ID-only CPK's ID).</summary>
    ByIndex,

    /// <summary>By the path below the archive folder (the other formats).</summary>
    ByName,
}

/// <summary>What happened to an entry in the emulated archive.</summary>
public enum EntryState { Original, Replaced, Added, Deleted }
