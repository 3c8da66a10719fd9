using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// GTA IMG v2 (San Andreas): <c>VER2</c>, u32 n, n × {u32 offset, u16 size (both in 2048-byte sectors),
/// u16 0, name[24]}, then sector-aligned data. Names compare case-insensitively, as the game does.
/// </summary>
internal sealed class ImgFormat : ArchiveFormat<ImgIndex>
{
    internal const int SectorSize = 2048;
    internal const int RecordSize = 32;
    internal const int NameFieldSize = 24;
    internal const int HeaderSize = 8;
    private const int MaxEntries = 1 << 22;

    public static ImgFormat Instance { get; } = new();

    public override string Name => "img";
    public override string DisplayName => "IMG v2";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".img"];

    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < HeaderSize || !head.StartsWith("VER2"u8))
            return false;
        long count = BinaryPrimitives.ReadUInt32LittleEndian(head[4..]);
        return count <= MaxEntries && HeaderSize + RecordSize * count <= length;
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        if (reader.Length < HeaderSize)
            throw reader.Corrupt(0, $"the {reader.Length}-byte file is too short for an IMG header");
        if (!reader.ReadBytes(0, 4, "IMG magic").AsSpan().SequenceEqual("VER2"u8))
            throw reader.Corrupt(0, "not an IMG v2 archive (no VER2 magic)");

        uint count = reader.ReadUInt32LE(4, "entry count");
        long directoryEnd = HeaderSize + (long)RecordSize * count;
        if (count > MaxEntries || directoryEnd > reader.Length)
            throw reader.Corrupt(4, $"entry count {count} does not fit in the {reader.Length}-byte file");

        var directory = reader.ReadBytes(HeaderSize, directoryEnd - HeaderSize, "directory");
        var records = new ImgRecord[count];
        for (int i = 0; i < count; i++)
        {
            long at = HeaderSize + (long)RecordSize * i;
            var record = ReadRecord(directory.AsSpan(RecordSize * i, RecordSize));
            if (TryParseName(record.NameField) is not { } name)
                throw reader.Corrupt(at + 8, $"entry {i}: name is not 1 to 23 printable ASCII characters ended by a NUL");
            long start = record.Sector * (long)SectorSize, size = record.Sectors * (long)SectorSize;
            if (size > 0 && start < directoryEnd)
                throw reader.Corrupt(at, $"entry {i} '{name}' starts at {start}, inside the directory that ends at {directoryEnd}");
            if (size > 0 && !reader.Contains(start, size))
                throw reader.Corrupt(at, $"entry {i} '{name}' [{start}, {start + size}) is outside the {reader.Length}-byte file");
            records[i] = record with { Name = name };
        }
        CheckNoOverlaps(reader, records);
        return new ImgIndex(source, records);
    }

    protected override EmulatedArchive BuildArchive(ImgIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        ImgBuilder.Build(original, patch, pool);

    private static ImgRecord ReadRecord(ReadOnlySpan<byte> bytes) => new("",
        bytes.Slice(8, NameFieldSize).ToArray(),
        BinaryPrimitives.ReadUInt32LittleEndian(bytes),
        BinaryPrimitives.ReadUInt16LittleEndian(bytes[4..]),
        BinaryPrimitives.ReadUInt16LittleEndian(bytes[6..]));

    /// <summary>The name before the first NUL, or null when there is none, it is empty, or it holds a non-printable byte.</summary>
    internal static string? TryParseName(ReadOnlySpan<byte> field)
    {
        int end = field.IndexOf((byte)0);
        if (end <= 0)
            return null;
        foreach (byte b in field[..end])
        {
            if (b is < 0x20 or > 0x7E)
                return null;
        }
        return Encoding.ASCII.GetString(field[..end]);
    }

    private static void CheckNoOverlaps(ArchiveFileReader reader, ImgRecord[] records)
    {
        var used = Enumerable.Range(0, records.Length).Where(i => records[i].Sectors > 0).ToArray();
        Array.Sort(used, (a, b) => records[a].Sector.CompareTo(records[b].Sector));
        for (int k = 1; k < used.Length; k++)
        {
            var (before, after) = (records[used[k - 1]], records[used[k]]);
            if ((long)before.Sector + before.Sectors > after.Sector)
                throw reader.Corrupt(HeaderSize + (long)RecordSize * used[k], $"entry {used[k]} '{after.Name}' overlaps entry {used[k - 1]} '{before.Name}'");
        }
    }
}
