using System.Buffers;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;
using static ArchiveEmu.Core.Formats.Zip.ZipRecords;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>
/// Lays out an emulated ZIP archive, compactly and in the original's file order: unchanged entries are
/// slices of the original (local header, compressed data and data descriptor verbatim, so runs of them
/// merge into one slice); replaced and added entries get a new stored local header (CRC-32 of the
/// input) and the input as a slice; deleted ones are left out. A new central directory and end record
/// (zip64 where needed) close it.
/// </summary>
internal static class ZipBuilder
{
    private const int CrcChunkSize = 1 << 20; // EntryInput.Read opens the file per call (or reads a virtual file): read big chunks
    private const ushort StoredVersion = 20;

    public static EmulatedArchive Build(ZipIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var entries = original.ZipEntries;
        var builder = new VirtualFileBuilder(pool, expectedSegments: entries.Count + 2 * patch.Changes.Count + 4);
        var (changeOf, added) = ZipPatchPlan.Resolve(original, patch);
        var offsets = new long[entries.Count];
        var newFields = new ZipEntryFields?[entries.Count];
        if (original.PrefixLength > 0)
            original.AppendOriginal(builder, 0, original.PrefixLength); // a self-extractor stub stays in front
        foreach (int i in original.FileOrder)
        {
            var e = entries[i];
            offsets[i] = builder.Position;
            if (changeOf[i] is not { } change)
                original.AppendOriginal(builder, e.LocalHeaderOffset, e.RecordEnd - e.LocalHeaderOffset);
            else if (!change.IsDelete)
                newFields[i] = AppendStored(builder, e.NameBytes, (ushort)(e.Flags & Utf8NameFlag), change.Input!, ZipEntryFields.Of(e));
        }

        var addedNames = added.Select(c => Encoding.UTF8.GetBytes(c.Key.Name!)).ToArray();
        var addedOffsets = new long[added.Count];
        var addedFields = new ZipEntryFields[added.Count];
        for (int k = 0; k < added.Count; k++)
        {
            addedOffsets[k] = builder.Position;
            ushort flags = addedNames[k].AsSpan().ContainsAnyInRange((byte)0x80, (byte)0xFF) ? Utf8NameFlag : (ushort)0;
            addedFields[k] = AppendStored(builder, addedNames[k], flags, added[k].Input!, null);
        }

        long directoryOffset = builder.Position;
        var directory = new ArrayBufferWriter<byte>(entries.Sum(e => e.CentralRecord.Length) + 64 * added.Count + 128);
        long count = 0;
        for (int i = 0; i < entries.Count; i++)
        {
            if (changeOf[i] is { IsDelete: true })
                continue;
            AppendCentral(original, directory, entries[i], newFields[i], offsets[i]);
            count++;
        }
        for (int k = 0; k < added.Count; k++)
        {
            if (!ZipRecordWriter.TryAppendCentralRecord(directory, ZipRecordWriter.NewFileTemplate, addedFields[k], addedOffsets[k], addedNames[k], [], []))
                throw new ArchiveFormatException(original.Source.Name, 0, $"'{added[k].Key.Name}': central record too large");
            count++;
        }
        long directorySize = directory.WrittenCount;
        ZipRecordWriter.AppendEnd(directory, directoryOffset, directorySize, count, original.Comment);
        builder.AppendBytes(directory.WrittenMemory);
        return new EmulatedArchive(original, builder.Build(), EntryList(entries, changeOf, added));
    }

    /// <summary>Appends a stored entry (new local header, then the input) and returns its header fields.</summary>
    private static ZipEntryFields AppendStored(VirtualFileBuilder builder, ReadOnlySpan<byte> name, ushort flags, EntryInput input, ZipEntryFields? replaced)
    {
        var (time, date) = input.Path is { } path ? DosTime(File.GetLastWriteTime(path))
            : replaced is { } old ? (old.Time, old.Date) : DosTime(new DateTime(1980, 1, 1));
        var fields = new ZipEntryFields(StoredVersion, flags, 0, time, date, Crc32Of(input), input.Length, input.Length);
        builder.AppendBytes(ZipRecordWriter.LocalHeader(name, fields));
        input.AppendTo(builder);
        return fields;
    }

    /// <summary>
    /// Re-emits an original central record at its new offset: fixed part, name, extras and comment as they
    /// were, the zip64 block rebuilt for what now needs it; a replaced entry also drops the AES block.
    /// </summary>
    private static void AppendCentral(ZipIndex original, ArrayBufferWriter<byte> directory, ZipEntry e, ZipEntryFields? replaced, long offset)
    {
        var raw = e.CentralRecord.Span;
        int nameLength = raw[28] | (raw[29] << 8), extraLength = raw[30] | (raw[31] << 8);
        var extraRaw = raw.Slice(CentralRecordSize + nameLength, extraLength);
        var extra = replaced is null ? ExtraWithout(extraRaw, Zip64ExtraId) : ExtraWithout(extraRaw, Zip64ExtraId, AesExtraId);
        var comment = raw[(CentralRecordSize + nameLength + extraLength)..];
        if (!ZipRecordWriter.TryAppendCentralRecord(directory, raw, replaced ?? ZipEntryFields.Of(e), offset, e.NameBytes, extra, comment))
            throw new ArchiveFormatException(original.Source.Name, e.CentralRecordOffset, $"'{e.Name}': no room for a zip64 block in its 64 KiB extra field");
    }

    private static uint Crc32Of(EntryInput input)
    {
        if (input.Path is null && input.File is null)
            return System.IO.Hashing.Crc32.HashToUInt32(input.Bytes.Span);
        var crc = new System.IO.Hashing.Crc32();
        var buffer = ArrayPool<byte>.Shared.Rent((int)Math.Clamp(input.Length, 1, CrcChunkSize));
        try
        {
            for (long at = 0; at < input.Length;)
            {
                int n = input.Read(at, buffer);
                if (n == 0)
                    throw new IOException($"{input}: ended after {at} of its {input.Length} bytes");
                crc.Append(buffer.AsSpan(0, n));
                at += n;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
        return crc.GetCurrentHashAsUInt32();
    }

    private static EmulatedEntry[] EntryList(IReadOnlyList<ZipEntry> entries, EntryChange?[] changeOf, List<EntryChange> added)
    {
        var list = new List<EmulatedEntry>(entries.Count + added.Count);
        var deleted = new List<EmulatedEntry>();
        for (int i = 0; i < entries.Count; i++)
        {
            var e = entries[i];
            if (changeOf[i] is not { } change)
                list.Add(new EmulatedEntry(list.Count, e.Name, e.UncompressedSize, EntryState.Original, EmulatedEntry.OriginalOrigin));
            else if (change.IsDelete)
                deleted.Add(new EmulatedEntry(i, e.Name, 0, EntryState.Deleted, change.Origin));
            else
                list.Add(new EmulatedEntry(list.Count, e.Name, change.Input!.Length, EntryState.Replaced, change.Origin, change.Input));
        }
        foreach (var change in added)
            list.Add(new EmulatedEntry(list.Count, change.Key.Name, change.Input!.Length, EntryState.Added, change.Origin, change.Input));
        return [.. list, .. deleted];
    }
}
