using System.Text;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>A directory record of either IMG version, as the plan sees it: the name, and its 24 stored bytes kept verbatim.</summary>
internal interface IImgRecord
{
    string Name { get; }
    byte[] NameField { get; }
}

/// <summary>A record of the emulated directory: its name bytes, and where its data comes from (the original record, a change, or both).</summary>
internal sealed record ImgPlanned<TRecord>(string Name, byte[] NameField, TRecord? Original, EntryChange? Change) where TRecord : class, IImgRecord;

/// <summary>
/// The one plan both IMG writers follow (v2's single file, v1's data file and directory): original records in order, minus
/// deletes, then additions; names match case-insensitively and a replaced entry keeps the original's spelling.
/// </summary>
internal static class ImgPlan
{
    private const int MaxNameLength = ImgFormat.NameFieldSize - 1;
    private static readonly NameRule Names = new("IMG", StringComparer.OrdinalIgnoreCase);

    /// <summary>The emulated directory and the deleted entries; <paramref name="checkEach"/> may refuse a change the writer cannot hold.</summary>
    public static (List<ImgPlanned<TRecord>> Planned, List<EmulatedEntry> Deleted) Of<TRecord>(ArchiveIndex original, IReadOnlyList<TRecord> records, ArchivePatch patch,
        Action<EntryChange>? checkEach = null) where TRecord : class, IImgRecord
    {
        var changes = NamedPatch.ByName(original, patch, Names, checkEach);
        var names = records.Select(r => r.Name).ToArray();
        var (changeOf, added) = NamedPatch.Match(original, names, changes, Names);
        var planned = new List<ImgPlanned<TRecord>>(records.Count + added.Count);
        var deleted = new List<EmulatedEntry>();
        for (int i = 0; i < records.Count; i++)
        {
            var record = records[i];
            if (changeOf[i] is { IsDelete: true } change)
                deleted.Add(new EmulatedEntry(i, record.Name, 0, EntryState.Deleted, change.Origin));
            else
                planned.Add(new ImgPlanned<TRecord>(record.Name, record.NameField, record, changeOf[i]));
        }
        foreach (var change in added)
            planned.Add(new ImgPlanned<TRecord>(change.Key.Name!, NewNameField(original, change), null, change));
        return (planned, deleted);
    }

    /// <summary>The sectors an injected file takes, its last one zero-padded.</summary>
    public static long SectorsOf(EntryChange change) => (change.Input!.Length + ImgFormat.SectorSize - 1) / ImgFormat.SectorSize;

    /// <summary>The 24-byte name field of an added entry: 1 to 23 printable ASCII characters, NUL-padded.</summary>
    private static byte[] NewNameField(ArchiveIndex original, EntryChange change)
    {
        string name = change.Key.Name!;
        var field = new byte[ImgFormat.NameFieldSize];
        bool fits = name.Length <= MaxNameLength && Ascii.IsValid(name) && !name.Contains('/') && !name.Contains('\\');
        if (fits)
            Encoding.ASCII.GetBytes(name, field);
        if (!fits || ImgFormat.TryParseName(field) != name)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"cannot add '{name}' (from {change.Origin}): IMG names are 1 to {MaxNameLength} printable ASCII characters with no folders");
        return field;
    }
}
