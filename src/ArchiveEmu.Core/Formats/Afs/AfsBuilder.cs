using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Afs;

/// <summary>
/// Lays out an emulated AFS archive: the header and name table rebuilt in memory, unchanged entries
/// as slices of the original, injected ones as slices of their inputs. Entries before the first
/// change keep their original offsets (and the bytes between them); from there on entries are placed
/// on 0x800 boundaries, an unchanged one moved by a whole number of 4 KiB blocks (<see cref="SharedBlocks"/>).
/// </summary>
internal static class AfsBuilder
{
    public static EmulatedArchive Build(AfsIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        // Runs of unchanged entries fold into one slice each, so about three segments per change (input, padding, the run after).
        var builder = new VirtualFileBuilder(pool, expectedSegments: 3 * patch.Changes.Count + 8);
        var changes = IndexChanges(original, patch);
        int oldCount = original.Entries.Count;
        int count = Math.Max(oldCount, changes.Count == 0 ? 0 : changes.Keys.Max() + 1);
        long minimumHeader = AfsFormat.RoundUp(8 + 8L * count + 8);
        long header = original.FirstDataOffset % AfsFormat.Alignment == 0 ? Math.Max(minimumHeader, original.FirstDataOffset) : minimumHeader;

        var headerBytes = new byte[header];
        builder.AppendBytes(headerBytes); // filled in below, before Build: the builder keeps a reference
        var entries = new List<EmulatedEntry>(count);
        bool keepOriginalOffsets = header == original.FirstDataOffset;

        for (int i = 0; i < count; i++)
        {
            changes.TryGetValue(i, out var change);
            var old = i < oldCount ? original.Entries[i] : null;
            var (state, origin) = IndexedPatch.StateOf(old, change, changes, i);
            long size = change is not null ? change.Input?.Length ?? 0 : old?.Size ?? 0;
            long offset = 0;
            if (size > 0)
            {
                if (change is null && keepOriginalOffsets && old!.Offset >= builder.Position)
                {
                    original.AppendOriginal(builder, builder.Position, old.Offset - builder.Position); // original padding, verbatim
                    offset = old.Offset;
                    original.AppendOriginal(builder, old.Offset, old.Size);
                }
                else
                {
                    keepOriginalOffsets = false;
                    if (change is null)
                        builder.AppendZeros(SharedBlocks.Keep(builder.Position, old!.Offset, AfsFormat.Alignment) - builder.Position);
                    else
                        builder.AppendPadding(AfsFormat.Alignment);
                    offset = builder.Position;
                    if (change is null)
                        AppendOriginalWithPadding(builder, original, old!);
                    else
                        change.Input!.AppendTo(builder);
                }
            }
            else if (change is not null)
                keepOriginalOffsets = false;

            BinaryPrimitives.WriteUInt32LittleEndian(headerBytes.AsSpan(8 + 8 * i), checked((uint)offset));
            BinaryPrimitives.WriteUInt32LittleEndian(headerBytes.AsSpan(12 + 8 * i), checked((uint)size));
            entries.Add(new EmulatedEntry(i, old?.Name ?? NameOf(change), size, state, origin, change?.Input));
        }

        "AFS\0"u8.CopyTo(headerBytes);
        BinaryPrimitives.WriteUInt32LittleEndian(headerBytes.AsSpan(4), (uint)count);
        AppendNameTable(original, builder, headerBytes, entries, count);
        builder.AppendPadding(AfsFormat.Alignment);
        if (builder.Position > uint.MaxValue)
            throw new ArchiveFormatException(original.Source.Name, 0, $"the emulated AFS archive would be {builder.Position} bytes; AFS offsets stop at 4 GiB");
        return new EmulatedArchive(original, builder.Build(), entries);
    }

    /// <summary>
    /// An unchanged entry together with the original's padding after it: runs of unchanged entries then
    /// become one contiguous slice of the original (one segment, not two per entry).
    /// </summary>
    private static void AppendOriginalWithPadding(VirtualFileBuilder builder, AfsIndex original, ArchiveEntry entry)
    {
        long padded = AfsFormat.RoundUp(entry.Offset + entry.Size) - entry.Offset;
        bool paddingInFile = entry.Offset % AfsFormat.Alignment == 0 && entry.Offset + padded <= original.Length;
        original.AppendOriginal(builder, entry.Offset, paddingInFile ? padded : entry.Size);
    }

    private static Dictionary<int, EntryChange> IndexChanges(AfsIndex original, ArchivePatch patch)
    {
        var changes = IndexedPatch.ByIndex(original, patch, "AFS", 1 << 24);
        foreach (var (index, change) in changes)
        {
            if (change.Input is { Length: > uint.MaxValue })
                throw new ArchiveFormatException(original.Source.Name, 0, $"entry {index}: {change.Input} is {change.Input.Length} bytes; AFS sizes stop at 4 GiB");
        }
        return changes;
    }

    private static string? NameOf(EntryChange? change) => change?.Input?.Path is { } path ? Path.GetFileName(path) : null;

    private static void AppendNameTable(AfsIndex original, VirtualFileBuilder builder, byte[] headerBytes, List<EmulatedEntry> entries, int count)
    {
        if (original.NameRecords is not { } oldRecords)
            return;
        var records = new byte[(long)AfsFormat.NameRecordSize * count];
        oldRecords.CopyTo(records, 0);
        foreach (var entry in entries)
        {
            var record = records.AsSpan(entry.Index * AfsFormat.NameRecordSize, AfsFormat.NameRecordSize);
            if (entry.Index >= original.Entries.Count)
            {
                if (entry.Input is null)
                    record.Clear(); // an empty slot
                else
                    AfsNames.WriteNew(record, entry.Index, entry.Input);
            }
            else if (entry.State is EntryState.Replaced or EntryState.Deleted)
                AfsNames.SetSize(record, entry.Size);
        }

        builder.AppendPadding(AfsFormat.Alignment);
        long at = builder.Position;
        builder.AppendBytes(records);
        long pointer = original.Placement == AfsNameTablePlacement.BeforeFirstData ? headerBytes.Length - 8 : 8 + 8L * count;
        BinaryPrimitives.WriteUInt32LittleEndian(headerBytes.AsSpan((int)pointer), checked((uint)at));
        BinaryPrimitives.WriteUInt32LittleEndian(headerBytes.AsSpan((int)pointer + 4), (uint)records.Length);
    }
}
