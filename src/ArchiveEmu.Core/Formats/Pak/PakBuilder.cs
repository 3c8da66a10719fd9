using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>
/// Lays out an emulated PAK archive, one table-driven builder for all six variants: unchanged records
/// are slices of the original (header, data and padding together, so runs of them merge into one
/// segment); replaced and added records get a new header in memory, their input as a slice, and zero
/// padding to the variant's alignment; deleted records are left out. Added records go after the last
/// record, before the original's tail (the V1 terminator, or trailing bytes), which is kept verbatim.
/// </summary>
internal static class PakBuilder
{
    private static readonly NameRule Names = new("PAK", StringComparer.Ordinal);

    public static EmulatedArchive Build(PakIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: original.Records.Count + 3 * patch.Changes.Count + 4);
        var variant = original.Variant;
        var changes = NamedPatch.ByName(original, patch, Names, change =>
        {
            if (change.Input is { Length: > int.MaxValue })
                throw new ArchiveFormatException(original.Source.Name, 0, $"entry '{change.Key.Name}': {change.Input} is {change.Input.Length} bytes; PAK sizes are s32");
        });
        var (changeOf, added) = NamedPatch.Match(original, original.Records.Select(r => r.Name).ToArray(), changes, Names, checkAdded: change =>
        {
            if (!PakHeader.FitsNewRecord(variant, change.Key.Name!))
                throw new ArchiveFormatException(original.Source.Name, 0,
                    $"cannot add '{change.Key.Name}' (from {change.Origin}): a {variant} PAK name is printable ASCII of at most {variant.NameLength - 1} bytes");
        });
        var entries = new List<EmulatedEntry>(original.Records.Count + patch.Changes.Count);
        var deleted = new List<EmulatedEntry>();
        var countField = new byte[variant.FirstRecordOffset];
        builder.AppendBytes(countField); // filled in below, before Build: the builder keeps a reference

        for (int i = 0; i < original.Records.Count; i++)
        {
            var record = original.Records[i];
            var change = changeOf[i];
            if (change is null)
            {
                original.AppendOriginal(builder, record.RecordStart, record.RecordEnd - record.RecordStart);
                builder.AppendPadding(variant.Alignment); // only when the original's last record stops short of it at EOF
                entries.Add(new EmulatedEntry(entries.Count, record.Name, record.Size, EntryState.Original, EmulatedEntry.OriginalOrigin));
                continue;
            }
            if (change.IsDelete)
            {
                deleted.Add(new EmulatedEntry(i, record.Name, 0, EntryState.Deleted, change.Origin));
                continue;
            }
            AppendRecord(builder, variant, record.Name, change.Input!);
            entries.Add(new EmulatedEntry(entries.Count, record.Name, change.Input!.Length, EntryState.Replaced, change.Origin, change.Input));
        }

        foreach (var change in added)
        {
            AppendRecord(builder, variant, change.Key.Name!, change.Input!);
            entries.Add(new EmulatedEntry(entries.Count, change.Key.Name, change.Input!.Length, EntryState.Added, change.Origin, change.Input));
        }

        if (original.TailLength > 0)
            original.AppendOriginal(builder, original.TailOffset, original.TailLength);
        if (variant.HasCount)
            variant.WriteInt32(countField, entries.Count);
        return new EmulatedArchive(original, builder.Build(), entries.Concat(deleted).ToArray());
    }

    private static void AppendRecord(VirtualFileBuilder builder, PakVariant variant, string name, EntryInput input)
    {
        builder.AppendBytes(PakHeader.Write(variant, name, (int)input.Length));
        input.AppendTo(builder);
        builder.AppendPadding(variant.Alignment);
    }
}
