using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Zip;

/// <summary>One entry of a ZIP archive: its central-directory record and where its local record lies.</summary>
/// <param name="Name">The decoded name ("dir/" for a directory).</param>
/// <param name="CentralRecord">The raw central-directory record (fixed part, name, extra, comment), re-emitted with a new offset.</param>
/// <param name="CentralRecordOffset">Where that record is in the original, for error messages.</param>
/// <param name="LocalHeaderOffset">Where the local header (PK\3\4) starts.</param>
/// <param name="LocalHeaderLength">30 + name + extra of the local header: the data starts after it.</param>
/// <param name="RecordEnd">The end of the entry's bytes: data plus its data descriptor, if any.</param>
internal sealed record ZipEntry(string Name, ReadOnlyMemory<byte> CentralRecord, long CentralRecordOffset, ushort Flags, uint Crc32,
    long CompressedSize, long UncompressedSize, long LocalHeaderOffset, long LocalHeaderLength = 0, long RecordEnd = 0)
{
    public bool IsDirectory => Name.EndsWith('/');

    /// <summary>A Unix symbolic link (made on Unix, S_IFLNK in the high half of the external attributes): its data is the target path.</summary>
    public bool IsSymbolicLink => CentralRecord.Span[5] == UnixHost && (CentralRecord.Span[41] & 0xF0) == 0xA0;
    public long DataOffset => LocalHeaderOffset + LocalHeaderLength;

    /// <summary>The raw name bytes, as stored in the central record.</summary>
    public ReadOnlySpan<byte> NameBytes => CentralRecord.Span.Slice(ZipRecords.CentralRecordSize, NameLength);

    private const byte UnixHost = 3;

    private int NameLength => CentralRecord.Span[28] | (CentralRecord.Span[29] << 8);
}

/// <summary>The validated index of a ZIP archive: central-directory entries with their local records, and the end record's comment.</summary>
internal sealed class ZipIndex : ArchiveIndex
{
    internal ZipIndex(ArchiveSource source, IReadOnlyList<ZipEntry> zipEntries, int[] fileOrder,
        long centralDirectoryOffset, byte[] comment)
        : base(source, zipEntries.Select((e, i) => new ArchiveEntry(i, e.Name, e.DataOffset, e.CompressedSize)).ToArray())
    {
        ZipEntries = zipEntries;
        FileOrder = fileOrder;
        CentralDirectoryOffset = centralDirectoryOffset;
        Comment = comment;
    }

    public override IArchiveFormat Format => ZipFormat.Instance;

    /// <summary>Entries in central-directory order.</summary>
    internal IReadOnlyList<ZipEntry> ZipEntries { get; }

    /// <summary>Indices into <see cref="ZipEntries"/> by local header offset: the order of the entries' bytes in the file.</summary>
    internal int[] FileOrder { get; }

    /// <summary>Where the central directory starts: every entry's bytes end before it.</summary>
    public long CentralDirectoryOffset { get; }

    /// <summary>Bytes before the first local header (a self-extractor stub; usually none).</summary>
    public long PrefixLength => FileOrder.Length > 0 ? ZipEntries[FileOrder[0]].LocalHeaderOffset : CentralDirectoryOffset;

    internal override string? WhyNotInPlace(ArchiveEntry entry)
    {
        if ((ZipEntries[entry.Index].Flags & Encrypted) != 0)
            return "stored encrypted";
        int method = Method(entry);
        return method is Stored or Deflated ? null : $"stored compressed (ZIP method {method}, which ArchiveEmu cannot decode)";
    }

    internal override StoredEncoding? StoredCodec(ArchiveEntry entry) =>
        Method(entry) == Deflated ? new StoredEncoding(DeflateCodec.Instance, ZipEntries[entry.Index].UncompressedSize) : null;

    private const int Stored = 0, Deflated = 8, Encrypted = 1;

    private int Method(ArchiveEntry entry) => System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(ZipEntries[entry.Index].CentralRecord.Span[10..]);

    /// <summary>The archive comment from the end record.</summary>
    internal byte[] Comment { get; }
}
