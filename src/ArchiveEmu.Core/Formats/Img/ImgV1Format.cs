using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// GTA IMG v1 (GTA III, Vice City): two files. <c>x.dir</c> is n × 32-byte records {u32 offset, u32 size (both in
/// 2048-byte sectors), name[24]}, n = its size / 32, no header; <c>x.img</c> is the sector-aligned data, no header or magic.
/// The archive is the <c>.img</c>: it is recognised by its directory beside it (<see cref="IsPair"/>), never by its bytes, and
/// its emulated directory is served as a route of its own that follows it (docs/DESIGN.md, "IMG v1: the .dir follows its .img").
/// </summary>
internal sealed partial class ImgV1Format : ArchiveFormat<ImgV1Index>
{
    internal const string DirectoryExtension = ".dir";
    private const int MaxEntries = 1 << 22;

    public static ImgV1Format Instance { get; } = new();

    public override string Name => "img-v1";
    public override string DisplayName => "IMG v1 with its .dir";
    public override EntryAddressing Addressing => EntryAddressing.ByName;
    public override StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public override IReadOnlyList<string> Extensions { get; } = [".img"];

    /// <summary>Always false: the data file has no magic; <see cref="IsPair"/> finds the pair by its directory file.</summary>
    public override bool Detect(ReadOnlySpan<byte> head, long length) => false;

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        if (source.IsSlice)
            throw new ArchiveFormatException(source.Name, 0, "an IMG v1 archive stored inside another file has no .dir beside it to read");
        using (ArchiveFileReader.Open(source)) { } // the data file must still be as the source saw it
        var directoryPath = DirectoryOf(source.Path) ?? throw new ArchiveFormatException(source.Name, 0,
            $"IMG v1 archive without its directory: no {Path.GetFileNameWithoutExtension(source.Path)}{DirectoryExtension} beside it");
        var directory = ArchiveSource.File(directoryPath);
        using var reader = ArchiveFileReader.Open(directory);
        if (reader.Length % ImgFormat.RecordSize != 0)
            throw reader.Corrupt(reader.Length - reader.Length % ImgFormat.RecordSize,
                $"the {reader.Length}-byte IMG v1 directory is not a whole number of {ImgFormat.RecordSize}-byte records");
        long count = reader.Length / ImgFormat.RecordSize;
        if (count > MaxEntries)
            throw reader.Corrupt(0, $"{count} records; more than {MaxEntries} is not a directory ArchiveEmu accepts");

        var bytes = reader.ReadBytes(0, reader.Length, "directory");
        var records = new ImgV1Record[count];
        for (int i = 0; i < count; i++)
        {
            long at = (long)ImgFormat.RecordSize * i;
            var field = bytes.AsSpan((int)at, ImgFormat.RecordSize);
            var nameField = field.Slice(8, ImgFormat.NameFieldSize).ToArray();
            if (ImgFormat.TryParseName(nameField) is not { } name)
                throw reader.Corrupt(at + 8, $"entry {i}: name is not 1 to 23 printable ASCII characters ended by a NUL");
            var record = new ImgV1Record(name, nameField, BinaryPrimitives.ReadUInt32LittleEndian(field), BinaryPrimitives.ReadUInt32LittleEndian(field[4..]));
            long start = record.Sector * (long)ImgFormat.SectorSize, size = record.Sectors * (long)ImgFormat.SectorSize;
            if (size > 0 && start > source.Length - size)
                throw reader.Corrupt(at, $"entry {i} '{name}' [{start}, {start + size}) is outside the {source.Length}-byte {source.Path}");
            records[i] = record;
        }
        CheckNoOverlaps(reader, records);
        return new ImgV1Index(source, directory, records);
    }

    protected override EmulatedArchive BuildArchive(ImgV1Index original, ArchivePatch patch, FileHandlePool? pool) =>
        ImgV1Builder.BuildData(original, patch, pool);

    // The pair seen from its data file, even when given the directory's view of it.
    protected override ImgV1Index Own(ArchiveIndex original) => AsIndex(original).DataView();

    /// <summary>The emulated directory (<c>x.dir</c>) that describes what <see cref="ArchiveFormat{TIndex}.Build"/> makes of the same original and patch.</summary>
    public static EmulatedArchive BuildDirectory(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) =>
        ImgV1Builder.BuildDirectory(AsIndex(original).DataView(), patch, pool);

    private static void CheckNoOverlaps(ArchiveFileReader reader, ImgV1Record[] records)
    {
        var used = Enumerable.Range(0, records.Length).Where(i => records[i].Sectors > 0).ToArray();
        Array.Sort(used, (a, b) => records[a].Sector.CompareTo(records[b].Sector));
        for (int k = 1; k < used.Length; k++)
        {
            var (before, after) = (records[used[k - 1]], records[used[k]]);
            if ((long)before.Sector + before.Sectors > after.Sector)
                throw reader.Corrupt((long)ImgFormat.RecordSize * used[k], $"entry {used[k]} '{after.Name}' overlaps entry {used[k - 1]} '{before.Name}'");
        }
    }
}
