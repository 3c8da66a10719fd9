using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// GTA IMG v1 (GTA III, Vice City): two files. <c>x.dir</c> is n × 32-byte records {u32 offset, u32 size (both in
/// 2048-byte sectors), name[24]}, n = its size / 32, no header; <c>x.img</c> is the sector-aligned data, no header or magic.
/// The archive is the <c>.img</c>: it is recognised by its directory beside it (<see cref="IsPair"/>), never by its bytes, and
/// its emulated directory is served as a route of its own that follows it (docs/DESIGN.md, "IMG v1: the .dir follows its .img").
/// </summary>
internal sealed class ImgV1Format : IArchiveFormat
{
    internal const string DirectoryExtension = ".dir";
    private const int MaxEntries = 1 << 22;

    public static ImgV1Format Instance { get; } = new();

    public string Name => "img-v1";
    public EntryAddressing Addressing => EntryAddressing.ByName;
    public StringComparer NameComparer => StringComparer.OrdinalIgnoreCase;
    public IReadOnlyList<string> Extensions { get; } = [".img"];

    /// <summary>Always false: the data file has no magic; <see cref="IsPair"/> finds the pair by its directory file.</summary>
    public bool Detect(ReadOnlySpan<byte> head, long length) => false;

    /// <summary>
    /// The game's <c>&lt;base&gt;.dir</c> in the folder of <paramref name="dataPath"/>, letter case aside (the exact spelling
    /// first), or null. From the listing, not File.Exists, which on a case-insensitive file system answers with our spelling.
    /// </summary>
    public static string? DirectoryOf(string dataPath)
    {
        var folder = Path.GetDirectoryName(Path.GetFullPath(dataPath))!;
        string wanted = Path.GetFileNameWithoutExtension(dataPath) + DirectoryExtension;
        if (string.Equals(Path.GetFileName(dataPath), wanted, StringComparison.OrdinalIgnoreCase) || !Directory.Exists(folder))
            return null; // a .dir is nobody's data file
        var matches = Directory.EnumerateFiles(folder).Where(f => string.Equals(Path.GetFileName(f), wanted, StringComparison.OrdinalIgnoreCase))
            .Order(StringComparer.Ordinal).ToList();
        return matches.FirstOrDefault(f => Path.GetFileName(f) == wanted) ?? matches.FirstOrDefault();
    }

    /// <summary>For a <c>.dir</c> path, the data file beside it whose directory it is (an IMG v1 pair), or null. Never throws.</summary>
    public static string? DataOf(string directoryPath)
    {
        if (!directoryPath.EndsWith(DirectoryExtension, StringComparison.OrdinalIgnoreCase))
            return null;
        try
        {
            var folder = Path.GetDirectoryName(Path.GetFullPath(directoryPath))!;
            string stem = Path.GetFileNameWithoutExtension(directoryPath);
            return Directory.EnumerateFiles(folder)
                .Where(f => !f.EndsWith(DirectoryExtension, StringComparison.OrdinalIgnoreCase)
                    && string.Equals(Path.GetFileNameWithoutExtension(f), stem, StringComparison.OrdinalIgnoreCase))
                .Order(StringComparer.Ordinal).FirstOrDefault(f => string.Equals(DirectoryOf(f), Path.GetFullPath(directoryPath), StringComparison.Ordinal) && IsPair(f));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Whether <paramref name="dataPath"/> is the data file of an IMG v1 pair: its <c>.dir</c> exists and is a whole, non-zero
    /// number of 32-byte records whose extents lie inside the data file. Never throws.
    /// </summary>
    public static bool IsPair(string dataPath) => WhyNotPair(dataPath) is null;

    /// <summary>Why <paramref name="dataPath"/> is not an IMG v1 data file (one clause, naming its .dir), or null when it is.</summary>
    public static string? WhyNotPair(string dataPath)
    {
        try
        {
            if (DirectoryOf(dataPath) is not { } directory)
                return $"no {Path.GetFileNameWithoutExtension(dataPath)}{DirectoryExtension} beside it, as an IMG v1 archive has";
            long dataLength = FileIdentity.Of(Path.GetFullPath(dataPath)).Length;
            using var reader = ArchiveFileReader.Open(directory);
            if (reader.Length == 0 || reader.Length % ImgFormat.RecordSize != 0 || reader.Length / ImgFormat.RecordSize > MaxEntries)
                return $"{directory} beside it is {reader.Length} bytes, not 1 to {MaxEntries} IMG v1 records of {ImgFormat.RecordSize} bytes";
            var bytes = reader.ReadBytes(0, reader.Length, "directory");
            for (int at = 0; at < bytes.Length; at += ImgFormat.RecordSize)
            {
                long start = BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(at)) * (long)ImgFormat.SectorSize;
                long size = BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(at + 4)) * (long)ImgFormat.SectorSize;
                if (size > 0 && start > dataLength - size)
                    return $"record {at / ImgFormat.RecordSize} of {directory} beside it lies past the end of the {dataLength}-byte file";
            }
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return e.Message;
        }
    }

    /// <summary>The data file's directory: its identity is in the cache key, so a changed <c>x.dir</c> is a new key.</summary>
    IReadOnlyList<string> IArchiveFormat.CompanionFiles(string path) => DirectoryOf(path) is { } directory ? [directory] : [];

    public ArchiveIndex ReadIndex(string path) => ReadIndex(ArchiveSource.File(path));

    public ArchiveIndex ReadIndex(ArchiveSource source)
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

    public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) =>
        ImgV1Builder.BuildData(AsIndex(original), patch, pool);

    /// <summary>The emulated directory (<c>x.dir</c>) that describes what <see cref="Build"/> makes of the same original and patch.</summary>
    public static EmulatedArchive BuildDirectory(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) =>
        ImgV1Builder.BuildDirectory(AsIndex(original), patch, pool);

    private static ImgV1Index AsIndex(ArchiveIndex original) =>
        (original as ImgV1Index)?.DataView() ?? throw new ArgumentException("not an IMG v1 index", nameof(original));

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
