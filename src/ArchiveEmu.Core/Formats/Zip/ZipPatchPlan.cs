namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>Matches a patch's names to a ZIP's entries and refuses what ZIP cannot take.</summary>
internal static class ZipPatchPlan
{
    // A name two entries share is refused: which one to change would be a guess.
    private static readonly NameRule Names = new("ZIP", StringComparer.Ordinal, "a relative path", IsCleanRelativePath, RefusesAmbiguous: true);

    /// <summary>The change for each original entry (by central-directory index, null if none), and the added entries in patch order.</summary>
    public static (EntryChange?[] ChangeOf, List<EntryChange> Added) Resolve(ZipIndex original, ArchivePatch patch)
    {
        var entries = original.ZipEntries;
        // "dir/" and "dir" are one path: a mod file named like a directory must not slip in beside it.
        var names = entries.Select(e => e.Name.TrimEnd('/')).ToArray();
        return NamedPatch.Match(original, names, NamedPatch.ByName(original, patch, Names), Names, checkMatched: (index, change) =>
        {
            if (entries[index].IsDirectory && !change.IsDelete)
                throw Refuse(original, $"'{entries[index].Name}' is a directory in the ZIP; {change.Origin} cannot replace it with a file");
            if (entries[index].IsSymbolicLink && !change.IsDelete)
                throw Refuse(original, $"'{change.Key.Name}' is a symbolic link in the ZIP; {change.Origin} cannot replace it with a file");
        });
    }

    /// <summary>A path with '/' separators, no empty, "." or ".." segment, no leading '/', backslash or drive.</summary>
    private static bool IsCleanRelativePath(string name)
    {
        if (name.Contains('\\') || name.Contains('\0') || (name.Length >= 2 && name[1] == ':'))
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
