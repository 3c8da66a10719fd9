namespace ArchiveEmu.Core.Formats;

/// <summary>What AFS and AWB, the formats whose entries are addressed by index, share when applying a patch.</summary>
internal static class IndexedPatch
{
    /// <summary>
    /// The patch's changes by entry index. A key that is not an index in [0, <paramref name="maxEntries"/>) or an
    /// index changed twice, or a delete of an entry the original does not have, is an <see cref="ArchiveFormatException"/>
    /// naming the archive.
    /// </summary>
    public static Dictionary<int, EntryChange> ByIndex(ArchiveIndex original, ArchivePatch patch, string formatName, int maxEntries)
    {
        var changes = new Dictionary<int, EntryChange>();
        foreach (var change in patch.Changes)
        {
            if (!change.Key.IsIndex || change.Key.Index < 0 || change.Key.Index >= maxEntries)
                throw new ArchiveFormatException(original.Source.Name, 0, $"{formatName} entries are addressed by index from 0; '{change.Key}' (from {change.Origin}) is not one");
            if (change.IsDelete && change.Key.Index >= original.Entries.Count) // as the named formats refuse it; it grew the archive
                throw new ArchiveFormatException(original.Source.Name, 0, $"cannot delete entry {change.Key.Index} (from {change.Origin}): no such entry; "
                    + $"the archive has {original.Entries.Count} entries (0 to {original.Entries.Count - 1})");
            if (!changes.TryAdd(change.Key.Index, change))
                throw new ArchiveFormatException(original.Source.Name, 0, $"entry {change.Key.Index} is changed twice ({changes[change.Key.Index].Origin}, {change.Origin})");
        }
        return changes;
    }

    /// <summary>The state and origin of entry <paramref name="index"/> of the emulated archive.</summary>
    public static (EntryState, string) StateOf(ArchiveEntry? old, EntryChange? change, Dictionary<int, EntryChange> changes, int index)
    {
        if (change is not null)
            return (change.IsDelete ? EntryState.Deleted : old is null ? EntryState.Added : EntryState.Replaced, change.Origin);
        if (old is not null)
            return (EntryState.Original, EmulatedEntry.OriginalOrigin);
        // An empty slot between the old end and an added entry: credited to the change that grew the archive.
        var grower = changes.Where(c => c.Key > index).MinBy(c => c.Key).Value;
        return (EntryState.Added, grower.Origin);
    }
}
