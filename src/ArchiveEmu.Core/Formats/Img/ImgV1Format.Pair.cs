using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>
/// The IMG v1 pair: the data file <c>x.img</c> is recognised by its directory <c>x.dir</c> beside it, never by its bytes, and
/// that directory follows it (docs/DESIGN.md, "IMG v1: the .dir follows its .img"): the game's <c>x.dir</c> (letter case aside,
/// the exact spelling first) becomes a route of its own whose bytes are rebuilt from the same plan as the data file's. A mod
/// file that replaces that <c>x.dir</c> whole would make the pair disagree: it is refused with one line naming it.
/// </summary>
internal sealed partial class ImgV1Format : IFollowingFormat, IPairedFormat
{
    public bool CanFollow(IArchiveFormat leader) => leader == Instance;

    public string FollowsAs => "the IMG v1 directory, rebuilt to match";

    public string RuleFor(string leader) => $"IMG v1 directory follows {leader}";

    /// <summary>The game's <c>x.dir</c> beside a whole <c>x.img</c>; an IMG v1 archive without one is an <see cref="ArchiveFormatException"/>.</summary>
    public IReadOnlyList<Sibling> FollowersOf(Leader leader, List<string> warnings)
    {
        if (leader.File is not { } data)
            return []; // stored inside another file: no .dir beside it (ReadIndex refuses it)
        var directory = DirectoryOf(data) ?? throw new ArchiveFormatException(data, 0,
            $"IMG v1 archive without its directory: no {Path.GetFileNameWithoutExtension(data)}{DirectoryExtension} beside it");
        return [new Sibling(Path.GetFileName(directory), ArchiveSource.File(directory), null)];
    }

    public string? WhyNotReplacedWhole(string follower, string leader, string replacement) =>
        $"{replacement}: replaces {follower}, the directory of {leader}, whose entries mods change "
        + $"(the rebuilt directory must describe them); put the files in a folder {leader}/ instead, or replace both files whole";

    public string? WhyNotFollowing(ArchiveSource follower, IFollowedRoute leader) => null; // IsPaired checked it when the .img was detected

    /// <summary>The pair's index, read through the <c>.img</c> as the data file's is.</summary>
    public ArchiveIndex ReadFollowerOriginal(Func<ArchiveIndex> own, IFollowedRoute leader) => leader.ReadOriginal();

    /// <summary>The same original and patch as the <c>.img</c>'s build, so the two always agree.</summary>
    public EmulatedArchive BuildFollower(IFollowedRoute follower, IFollowedRoute leader, FileHandlePool? pool)
    {
        if (follower.HasChanges)
            throw new ArchiveFormatException(follower.GamePath, 0, $"the IMG v1 directory is rebuilt from {leader.RelativePath}; give changes to {leader.RelativePath}, not to its .dir");
        return leader.BuildWith(pool, (original, patch) => BuildDirectory(original, patch, pool));
    }

    /// <summary>IMG v1's data file has no magic: a whole file with its .dir beside it is one, unless a magic said otherwise (VER2
    /// wins); PAK's and TXD's guesses lose (a gta3.img may start with a TXD entry).</summary>
    public bool IsPaired(string path, IArchiveFormat? byContent) =>
        (byContent is null || byContent == Pak.PakFormat.Instance || byContent == Txd.TxdFormat.Instance) && IsPair(path);

    /// <summary>What is wrong with an IMG v1 directory beside it when there is one (a damaged <c>x.dir</c> is the likelier mistake than an unknown format).</summary>
    public string NotKnownBecause(string path) =>
        DirectoryOf(path) is not null && WhyNotPair(path) is { } why ? "; as IMG v1: " + why
        : DataOf(path) is { } data ? $"; it is the directory of the IMG v1 archive {Path.GetFileName(data)}, whose entries are addressed through {Path.GetFileName(data)}/"
        : "";

    /// <summary>The data file's directory: its identity is in the cache key, so a changed <c>x.dir</c> is a new key.</summary>
    public IReadOnlyList<string> CompanionFiles(string path) => DirectoryOf(path) is { } directory ? [directory] : [];

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

}
