namespace ArchiveEmu.Core.Formats;

/// <summary>One change to an archive: replace or add the entry at <see cref="Key"/> with <see cref="Input"/>, or delete it when Input is null.</summary>
/// <param name="Key">The entry: an index or a name.</param>
/// <param name="Input">The new bytes, or null to delete the entry.</param>
/// <param name="Origin">Who asked for it, for listings and conflict reports (a mod folder's name).</param>
internal sealed record EntryChange(EntryKey Key, EntryInput? Input, string Origin)
{
    public bool IsDelete => Input is null;

    /// <summary>Which rule of the mod placed it ("mirror", "Redirector", "FEmulator/AFS/Sound.afs", …; docs/DESIGN.md); null for inputs added in code.</summary>
    public string? Rule { get; init; }
}

/// <summary>
/// The resolved changes to one archive, at most one per entry (routing already settled conflicts).
/// Names use '/' separators; a format compares them with its own <see cref="IArchiveFormat.NameComparer"/>.
/// </summary>
internal sealed class ArchivePatch
{
    public ArchivePatch(IEnumerable<EntryChange> changes) => Changes = changes.ToArray();

    public static ArchivePatch Empty { get; } = new(Array.Empty<EntryChange>());

    public IReadOnlyList<EntryChange> Changes { get; }
}
