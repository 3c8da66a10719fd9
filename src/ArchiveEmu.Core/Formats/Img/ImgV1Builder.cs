using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// Lays out an emulated IMG v1 pair from one plan, so the two files always agree: the data file (<c>x.img</c>) holds every
/// entry's data in directory order from sector 0, unchanged entries as slices of the original with their sector padding
/// (runs of them merge into one slice), injected files zero-padded to a whole sector; the directory (<c>x.dir</c>) is rebuilt
/// in memory with those sectors. Deleted records are dropped, added ones go at the end; names match case-insensitively and a
/// replaced entry keeps the original's spelling. With no change both are the originals, byte for byte.
/// </summary>
internal static class ImgV1Builder
{
    private const int MaxNameLength = ImgFormat.NameFieldSize - 1;
    private static readonly NameRule Names = new("IMG", StringComparer.OrdinalIgnoreCase);

    /// <summary>A record of the emulated directory: its name bytes, where its data comes from, and its size in sectors.</summary>
    private sealed record Planned(string Name, byte[] NameField, ImgV1Record? Original, EntryChange? Change, long Sectors);

    public static EmulatedArchive BuildData(ImgV1Index original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * (original.Records.Count + patch.Changes.Count) + 2);
        var (planned, entries) = Plan(original, patch);
        foreach (var p in planned)
        {
            if (p.Change is null)
                original.AppendOriginal(builder, p.Original!.Sector * (long)ImgFormat.SectorSize, p.Sectors * ImgFormat.SectorSize);
            else
            {
                p.Change.Input!.AppendTo(builder);
                builder.AppendPadding(ImgFormat.SectorSize);
            }
        }
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    public static EmulatedArchive BuildDirectory(ImgV1Index original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 1);
        if (patch.Changes.Count == 0)
        {
            original.DirectoryView().AppendOriginal(builder, 0, original.Directory.Length);
            return new EmulatedArchive(original.DirectoryView(), builder.Build(), Unchanged(original));
        }
        var (planned, entries) = Plan(original, patch);
        var directory = new byte[(long)ImgFormat.RecordSize * planned.Count];
        long sector = 0;
        for (int i = 0; i < planned.Count; i++)
        {
            var record = directory.AsSpan(ImgFormat.RecordSize * i, ImgFormat.RecordSize);
            BinaryPrimitives.WriteUInt32LittleEndian(record, (uint)sector);
            BinaryPrimitives.WriteUInt32LittleEndian(record[4..], (uint)planned[i].Sectors);
            planned[i].NameField.CopyTo(record[8..]);
            sector += planned[i].Sectors;
        }
        builder.AppendBytes(directory);
        return new EmulatedArchive(original.DirectoryView(), builder.Build(), entries);
    }

    private static EmulatedEntry[] Unchanged(ImgV1Index original) =>
        original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, "original")).ToArray();

    /// <summary>
    /// The emulated directory (original records in order, minus deletes, then additions) with each record's sectors, and the
    /// entry list (deleted entries last). A layout whose sectors pass what a u32 holds is refused here, for both files alike.
    /// </summary>
    private static (List<Planned>, List<EmulatedEntry>) Plan(ImgV1Index original, ArchivePatch patch)
    {
        var changes = NamedPatch.ByName(original, patch, Names);
        var names = original.Records.Select(r => r.Name).ToArray();
        var (changeOf, added) = NamedPatch.Match(original, names, changes, Names);
        var planned = new List<Planned>(original.Records.Count + added.Count);
        var deleted = new List<EmulatedEntry>();
        for (int i = 0; i < original.Records.Count; i++)
        {
            var record = original.Records[i];
            if (changeOf[i] is { IsDelete: true } change)
                deleted.Add(new EmulatedEntry(i, record.Name, 0, EntryState.Deleted, change.Origin));
            else
                planned.Add(new Planned(record.Name, record.NameField, record, changeOf[i], changeOf[i] is { } c ? SectorsOf(c) : record.Sectors));
        }
        foreach (var change in added)
            planned.Add(new Planned(change.Key.Name!, NewNameField(original, change), null, change, SectorsOf(change)));

        var entries = new List<EmulatedEntry>(planned.Count + deleted.Count);
        long sector = 0;
        for (int i = 0; i < planned.Count; i++)
        {
            var p = planned[i];
            if (sector > uint.MaxValue || p.Sectors > uint.MaxValue)
                throw new ArchiveFormatException(original.Source.Name, 0,
                    $"entry '{p.Name}' would start at sector {sector} and span {p.Sectors}; IMG v1 offsets and sizes stop at {uint.MaxValue} sectors");
            sector += p.Sectors;
            var state = p.Change is null ? EntryState.Original : p.Original is null ? EntryState.Added : EntryState.Replaced;
            entries.Add(new EmulatedEntry(i, p.Name, p.Sectors * ImgFormat.SectorSize, state, p.Change?.Origin ?? "original", p.Change?.Input));
        }
        entries.AddRange(deleted);
        return (planned, entries);
    }

    private static long SectorsOf(EntryChange change) => (change.Input!.Length + ImgFormat.SectorSize - 1) / ImgFormat.SectorSize;

    /// <summary>The 24-byte name field of an added entry: 1 to 23 printable ASCII characters, NUL-padded.</summary>
    private static byte[] NewNameField(ImgV1Index original, EntryChange change)
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
