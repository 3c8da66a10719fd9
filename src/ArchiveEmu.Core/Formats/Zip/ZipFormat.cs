using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>ZIP (stored, deflated or any other method; zip64): local records, a central directory and an end record.</summary>
internal sealed class ZipFormat : IArchiveFormat
{
    public static ZipFormat Instance { get; } = new();

    public string Name => "zip";
    public EntryAddressing Addressing => EntryAddressing.ByName;
    public StringComparer NameComparer => StringComparer.Ordinal;
    public IReadOnlyList<string> Extensions { get; } = [".zip"];

    /// <summary>
    /// A local header at the start; or, when the head is the whole file (an empty zip, a small self-extractor),
    /// an end record whose central directory ends right where it starts (a zip embedded in another format would not).
    /// </summary>
    public bool Detect(ReadOnlySpan<byte> head, long length)
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

    public ArchiveIndex ReadIndex(string path) => ReadIndex(ArchiveSource.File(path));

    public ArchiveIndex ReadIndex(ArchiveSource source) => ZipIndexReader.Read(source);

    public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) =>
        ZipBuilder.Build(original as ZipIndex ?? throw new ArgumentException("not a ZIP index", nameof(original)), patch, pool);
}
