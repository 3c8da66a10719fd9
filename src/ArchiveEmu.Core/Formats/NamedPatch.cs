namespace ArchiveEmu.Core.Formats;

/// <summary>How a format addressed by name compares and accepts entry names, for <see cref="NamedPatch"/>.</summary>
/// <param name="Format">The format's name in messages ("IMG", "tar").</param>
/// <param name="Comparer">When a patch's name and an entry's name are the same name (IMG: ignoring case).</param>
/// <param name="Kind">What a key must be, in messages ("name", "a relative path").</param>
/// <param name="Accepts">The format's own rule for a name, beyond being non-empty; null accepts every name.</param>
/// <param name="RefusesAmbiguous">Whether changing a name that several original entries share is refused (ZIP) instead of changing them all.</param>
internal sealed record NameRule(string Format, StringComparer Comparer, string Kind = "name", Func<string, bool>? Accepts = null, bool RefusesAmbiguous = false);

/// <summary>What IMG, PAK, tar and ZIP, the formats whose entries are addressed by name, share when applying a patch.</summary>
internal static class NamedPatch
{
    /// <summary>
    /// The patch's changes by name under the rule's comparer. A key that is not a name, or a name changed twice, is an
    /// <see cref="ArchiveFormatException"/> naming the archive; <paramref name="checkEach"/> adds the format's limits (entry size).
    /// </summary>
    public static Dictionary<string, EntryChange> ByName(ArchiveIndex original, ArchivePatch patch, NameRule rule, Action<EntryChange>? checkEach = null)
    {
        var changes = new Dictionary<string, EntryChange>(rule.Comparer);
        foreach (var change in patch.Changes)
        {
            string? name = change.Key.Name;
            if (change.Key.IsIndex || string.IsNullOrEmpty(name) || rule.Accepts?.Invoke(name) == false)
                throw Refuse(original, $"{rule.Format} entries are addressed by {rule.Kind}; '{change.Key}' (from {change.Origin}) is not one");
            if (!changes.TryAdd(name, change))
                throw Refuse(original, $"entry '{name}' is changed twice ({changes[name].Origin}, {change.Origin})");
            checkEach?.Invoke(change);
        }
        return changes;
    }

    /// <summary>
    /// The change for each original entry (by position in <paramref name="names"/>, null if none) and the changes that name
    /// no entry, which are additions, in patch order. Checks run in that order too: <paramref name="checkMatched"/> on each
    /// changed original entry, then, on each addition, the refusal to delete what is not there and <paramref name="checkAdded"/>.
    /// </summary>
    public static (EntryChange?[] ChangeOf, List<EntryChange> Added) Match(
        ArchiveIndex original, IReadOnlyList<string> names, Dictionary<string, EntryChange> changes, NameRule rule,
        Action<int, EntryChange>? checkMatched = null, Action<EntryChange>? checkAdded = null)
    {
        var changeOf = new EntryChange?[names.Count];
        var matched = new HashSet<string>(rule.Comparer);
        for (int i = 0; i < names.Count; i++)
        {
            if (!changes.TryGetValue(names[i], out var change))
                continue;
            if (!matched.Add(names[i]) && rule.RefusesAmbiguous)
                throw Refuse(original, $"'{change.Key.Name}' (from {change.Origin}) names more than one entry of the original; which one to change is unclear");
            changeOf[i] = change;
        }
        for (int i = 0; i < names.Count; i++)
        {
            if (changeOf[i] is { } change)
                checkMatched?.Invoke(i, change);
        }

        var added = new List<EntryChange>();
        foreach (var change in changes.Values.Where(c => !matched.Contains(c.Key.Name!)))
        {
            if (change.IsDelete)
                throw Refuse(original, $"cannot delete '{change.Key.Name}' (from {change.Origin}): no such entry");
            checkAdded?.Invoke(change);
            added.Add(change);
        }
        return (changeOf, added);
    }

    private static ArchiveFormatException Refuse(ArchiveIndex original, string problem) => new(original.Source.Name, 0, problem);
}
