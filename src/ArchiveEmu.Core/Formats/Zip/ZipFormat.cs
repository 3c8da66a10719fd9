using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>ZIP (stored, deflated or any other method; zip64): local records, a central directory and an end record.</summary>
internal sealed class ZipFormat : ArchiveFormat<ZipIndex>
{
    public static ZipFormat Instance { get; } = new();

    public override string Name => "zip";
    public override string DisplayName => "ZIP";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    public override IReadOnlyList<string> Extensions { get; } = [".zip"];

    /// <summary>
    /// A local header at the start; or, when the head is the whole file (an empty zip, a small self-extractor),
    /// an end record whose central directory ends right where it starts (a zip embedded in another format would not).
    /// </summary>
    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (length < ZipRecords.EndRecordSize || head.Length < 4)
            return false;
        if (BinaryPrimitives.ReadUInt32LittleEndian(head) == ZipRecords.LocalHeaderSignature)
            return length >= ZipRecords.LocalHeaderSize + ZipRecords.EndRecordSize;
        if (head.Length != length)
            return false;
        int tail = Math.Max(0, head.Length - (ZipRecords.EndRecordSize + ZipRecords.MaxCommentLength));
        int end = ZipRecords.FindEndRecord(head[tail..]);
        if (end < 0)
            return false;
        var record = head[(tail + end)..];
        return (long)BinaryPrimitives.ReadUInt32LittleEndian(record[16..]) + BinaryPrimitives.ReadUInt32LittleEndian(record[12..]) == tail + end;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source) => ZipIndexReader.Read(source);

    protected override EmulatedArchive BuildArchive(ZipIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        ZipBuilder.Build(original, patch, pool);

    // A ZIP entry's size is its uncompressed size, as listings show it.
    protected override IReadOnlyList<EmulatedEntry> UnchangedEntries(ZipIndex original) =>
        original.ZipEntries.Select((e, i) => new EmulatedEntry(i, e.Name, e.UncompressedSize, EntryState.Original, EmulatedEntry.OriginalOrigin)).ToArray();
}
