namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>Matches a patch's names to a ZIP's entries and refuses what ZIP cannot take.</summary>
internal static class ZipPatchPlan
{
    /// <summary>The change for each original entry (by central-directory index, null if none), and the added entries in patch order.</summary>
    public static (EntryChange?[] ChangeOf, List<EntryChange> Added) Resolve(ZipIndex original, ArchivePatch patch)
    {
        var entries = original.ZipEntries;
        // "dir/" and "dir" are one path: a mod file named like a directory must not slip in beside it.
        var byName = new Dictionary<string, int>(entries.Count, StringComparer.Ordinal);
        for (int i = 0; i < entries.Count; i++)
        {
            if (!byName.TryAdd(entries[i].Name.TrimEnd('/'), i))
                byName[entries[i].Name.TrimEnd('/')] = -1; // a duplicate name: changing it would be a guess
        }

        var changeOf = new EntryChange?[entries.Count];
        var added = new List<EntryChange>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var change in patch.Changes)
        {
            string? name = change.Key.Name;
            if (change.Key.IsIndex || !IsCleanRelativePath(name))
                throw Refuse(original, $"ZIP entries are addressed by a relative path; '{change.Key}' (from {change.Origin}) is not one");
            if (!seen.Add(name))
                throw Refuse(original, $"entry '{name}' is changed twice (from {change.Origin})");
            if (!byName.TryGetValue(name, out int index))
            {
                if (change.IsDelete)
                    throw Refuse(original, $"cannot delete '{name}' (from {change.Origin}): no such entry");
                added.Add(change);
                continue;
            }
            if (index < 0)
                throw Refuse(original, $"'{name}' (from {change.Origin}) names more than one entry of the original; which one to change is unclear");
            if (entries[index].IsDirectory && !change.IsDelete)
                throw Refuse(original, $"'{entries[index].Name}' is a directory in the ZIP; {change.Origin} cannot replace it with a file");
            if (entries[index].IsSymbolicLink && !change.IsDelete)
                throw Refuse(original, $"'{name}' is a symbolic link in the ZIP; {change.Origin} cannot replace it with a file");
            changeOf[index] = change;
        }
        return (changeOf, added);
    }

    /// <summary>A path with '/' separators, no empty, "." or ".." segment, no leading '/', backslash or drive.</summary>
    internal static bool IsCleanRelativePath([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] string? name)
    {
        if (string.IsNullOrEmpty(name) || name.Contains('\\') || name.Contains('\0') || (name.Length >= 2 && name[1] == ':'))
            return false;
        foreach (var segment in name.Split('/'))
        {
            if (segment is "" or "." or "..")
                return false;
        }
        return System.Text.Encoding.UTF8.GetByteCount(name) <= ushort.MaxValue;
    }

    private static ArchiveFormatException Refuse(ZipIndex original, string problem) => new(original.Source.Name, 0, problem);
}
