using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>
/// Atlus PAK (Persona), no magic: V1 records name[252] + s32 size + data on 64-byte boundaries, to EOF or
/// an all-zero record; V2/V3 an s32 count, then packed name[32]/name[24] + s32 size + data; each
/// little- or big-endian (see <see cref="PakVariant"/>). Detected by walking the records in the head.
/// </summary>
internal sealed class PakFormat : ArchiveFormat<PakIndex>
{
    /// <summary>The most records a V2/V3 count may claim (the file size usually limits it first).</summary>
    private const int MaxEntries = 1 << 24;

    public static PakFormat Instance { get; } = new();

    public override string Name => "pak";
    public override string DisplayName => "PAK";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    // .bin and .arc as FEF's PAK examples name them (init_free.bin, loading.arc).
    public override IReadOnlyList<string> Extensions { get; } = [".pak", ".pac", ".arc", ".bin"];

    public override bool Detect(ReadOnlySpan<byte> head, long length) => DetectVariant(head, length) is not null;

    /// <summary>The variant the head reads as, or null when it is not a PAK; never throws.</summary>
    public static PakVariant? DetectVariant(ReadOnlySpan<byte> head, long length) => PakProbe.Detect(head, length);

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        var head = reader.ReadHead(ArchiveFormats.DetectHeadSize);
        // A corrupt file matches no variant; the one that read furthest names the problem best.
        var variant = PakProbe.Detect(head, reader.Length) ?? PakProbe.BestGuess(head, reader.Length)
            ?? throw reader.Corrupt(0, "not an Atlus PAK archive (no variant of it has a well-formed first record)");
        return ReadIndex(reader, variant);
    }

    protected override EmulatedArchive BuildArchive(PakIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        PakBuilder.Build(original, patch, pool);

    private static PakIndex ReadIndex(ArchiveFileReader reader, PakVariant variant)
    {
        long count = ReadCount(reader, variant);
        var records = new List<PakRecord>((int)Math.Min(count, 4096));
        var header = new byte[variant.HeaderLength];
        long at = variant.FirstRecordOffset;
        bool terminator = false;
        while (records.Count < count)
        {
            if (!variant.HasCount && at >= reader.Length)
                break; // V1 ends at EOF
            if (at + variant.HeaderLength > reader.Length)
            {
                if (!variant.HasCount && IsZeros(reader, at, reader.Length - at))
                    break; // V1 with a short zero tail
                throw reader.Corrupt(at, $"record {records.Count} header [{at}, {at + variant.HeaderLength}) runs past the end of the {reader.Length}-byte file");
            }
            reader.ReadExactly(at, header, "record header");
            if (!variant.HasCount && header.AsSpan().IndexOfAnyExcept((byte)0) < 0)
            {
                terminator = true;
                break;
            }
            records.Add(ReadRecord(reader, variant, header, at, records.Count));
            at = variant.NextRecordOffset(records[^1].DataOffset + records[^1].Size);
        }
        return new PakIndex(reader.Source, variant, records, terminator, Math.Min(at, reader.Length));
    }

    private static long ReadCount(ArchiveFileReader reader, PakVariant variant)
    {
        if (!variant.HasCount)
            return long.MaxValue; // V1: until EOF or a terminator; every record takes at least 256 bytes
        int count = (int)(variant.BigEndian ? reader.ReadUInt32BE(0, "entry count") : reader.ReadUInt32LE(0, "entry count"));
        if (count < 0 || count > MaxEntries || variant.FirstRecordOffset + (long)count * variant.HeaderLength > reader.Length)
            throw reader.Corrupt(0, $"entry count {count} does not fit in the {reader.Length}-byte file ({variant} records take {variant.HeaderLength} bytes each)");
        return count;
    }

    private static PakRecord ReadRecord(ArchiveFileReader reader, PakVariant variant, byte[] header, long at, int index)
    {
        var nameField = header.AsSpan(0, variant.NameLength);
        if (!PakHeader.IsWellFormedName(nameField))
            throw reader.Corrupt(at, $"record {index} name is not printable ASCII followed by NULs ({variant})");
        string name = PakHeader.ReadName(nameField);
        long sizeAt = at + variant.NameLength;
        int size = variant.ReadInt32(header.AsSpan(variant.NameLength));
        if (size < 0)
            throw reader.Corrupt(sizeAt, $"record {index} '{name}' has a negative size ({size})");
        long dataAt = at + variant.HeaderLength;
        if (dataAt + size > reader.Length)
            throw reader.Corrupt(sizeAt, $"record {index} '{name}' data [{dataAt}, {dataAt + size}) runs past the end of the {reader.Length}-byte file");
        long end = Math.Min(variant.NextRecordOffset(dataAt + size), reader.Length);
        return new PakRecord(name, at, variant.HeaderLength, dataAt, size, end);
    }

    private static bool IsZeros(ArchiveFileReader reader, long offset, long count) =>
        reader.ReadBytes(offset, count, "bytes after the last record").AsSpan().IndexOfAnyExcept((byte)0) < 0;
}
