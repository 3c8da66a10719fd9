using ArchiveEmu.Core.VirtualFiles;
using static ArchiveEmu.Core.Formats.Tar.TarHeader;

namespace ArchiveEmu.Core.Formats.Tar;

/// <summary>tar (ustar, pax; GNU long names read): 512-byte headers, data padded to 512, two zero blocks at the end.</summary>
internal sealed class TarFormat : ArchiveFormat<TarIndex>
{
    private const int MaxExtensionSize = 1 << 20; // a pax or long-name record bigger than this is not a name

    public static TarFormat Instance { get; } = new();

    public override string Name => "tar";
    public override string DisplayName => "tar";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    public override IReadOnlyList<string> Extensions { get; } = [".tar"];

    public override bool Detect(ReadOnlySpan<byte> head, long length) =>
        head.Length >= BlockSize && head[..BlockSize].IndexOfAnyExcept((byte)0) >= 0 && ChecksumMatches(head[..BlockSize])
        && ParseNumber(head.Slice(SizeField, SizeLength)) is not null;

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        var members = new List<TarMember>();
        var header = new byte[BlockSize];
        long at = 0, recordStart = 0;
        string? longName = null;
        List<KeyValuePair<string, string>>? pax = null;

        while (at + BlockSize <= reader.Length)
        {
            reader.ReadExactly(at, header, "tar header");
            if (header.AsSpan().IndexOfAnyExcept((byte)0) < 0)
                break; // end-of-archive blocks
            if (!ChecksumMatches(header))
                throw reader.Corrupt(at, "tar header checksum does not match");
            long size = ParseNumber(header.AsSpan(SizeField, SizeLength)) ?? throw reader.Corrupt(at + SizeField, "tar size field is not a number");
            byte type = header[TypeField];
            if (pax?.FirstOrDefault(r => r.Key == "size") is { Key: not null } paxSize)
                size = long.TryParse(paxSize.Value, out var s) && s >= 0 ? s : throw reader.Corrupt(at, $"pax size '{paxSize.Value}' is not a size");
            long dataAt = at + BlockSize;
            if (!reader.Contains(dataAt, size))
                throw reader.Corrupt(at + SizeField, $"member data [{dataAt}, {dataAt + size}) runs past the end of the {reader.Length}-byte file");
            long next = dataAt + (size + BlockSize - 1) / BlockSize * BlockSize;

            if (type is (byte)'x' or (byte)'L')
            {
                if (size > MaxExtensionSize)
                    throw reader.Corrupt(at, $"extension header of {size} bytes is larger than the {MaxExtensionSize}-byte limit");
                var data = reader.ReadBytes(dataAt, size, "tar extension header");
                if (type == 'x')
                    pax = PaxRecords.Parse(data) ?? throw reader.Corrupt(dataAt, "malformed pax extended header");
                else
                    longName = Text(data);
                at = next;
                continue;
            }

            string name = pax?.FirstOrDefault(r => r.Key == "path").Value ?? longName ?? UstarName(header);
            members.Add(new TarMember(name, type, recordStart, at, dataAt, size, next, pax, longName is not null));
            (pax, longName) = (null, null);
            at = recordStart = next;
        }
        if (pax is not null || longName is not null)
            throw reader.Corrupt(at, "extension header with no member after it");
        return new TarIndex(source, members, Math.Min(at, reader.Length));
    }

    protected override EmulatedArchive BuildArchive(TarIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        TarBuilder.Build(original, patch, pool);

    private static string UstarName(ReadOnlySpan<byte> header)
    {
        string name = Text(header[..100]);
        string prefix = IsUstar(header) && header[262] == 0 ? Text(header.Slice(345, 155)) : ""; // POSIX ustar only, not GNU's "ustar  "
        return prefix.Length > 0 ? $"{prefix}/{name}" : name;
    }
}
