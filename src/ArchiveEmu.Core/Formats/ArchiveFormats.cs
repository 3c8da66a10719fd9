namespace ArchiveEmu.Core.Formats;

/// <summary>The formats ArchiveEmu knows, and detection of which one a file is.</summary>
internal static class ArchiveFormats
{
    /// <summary>The largest head given to <see cref="IArchiveFormat.Detect"/>.</summary>
    public const int DetectHeadSize = 64 * 1024;

    /// <summary>Formats in detection order: those with a magic first, the heuristic ones (PAK) last.</summary>
    public static IReadOnlyList<IArchiveFormat> All { get; } = new IArchiveFormat[]
    {
        // FORMAT-REGISTRATIONS (one line per format; keep magic-based formats before heuristic ones)
        Afs.AfsFormat.Instance,
        Awb.AwbFormat.Instance,
        Acb.AcbFormat.Instance, // an @UTF table named Header: before CPK, whose @UTF follows "CPK "
        Cpk.CpkFormat.Instance,
        Img.ImgFormat.Instance,
        Spd.SpdFormat.Instance, // SPR0 at offset 0
        Spr.SprFormat.Instance, // SPR0 at offset 8
        Img.ImgV1Format.Instance, // no magic: an IPairedFormat, found by the .dir beside it
        Tar.TarFormat.Instance,
        Zip.ZipFormat.Instance,
        Txd.TxdFormat.Instance, // a chunk type (0x16) and sizes that add up, weaker than a magic: after those, before PAK
        Pak.PakFormat.Instance, // heuristic (no magic): keep last
    };

    /// <summary>The formats' names as messages list them, in detection order: made from the registrations, so a new format is listed by its own.</summary>
    internal static string KnownNames { get; } = string.Join(", ", All.Select(f => f.DisplayName));

    /// <summary>The format named <paramref name="name"/> ("afs", "zip", …), or null.</summary>
    public static IArchiveFormat? ByName(string name) =>
        All.FirstOrDefault(f => string.Equals(f.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>The format of the file at <paramref name="path"/>, or null if none recognises it.</summary>
    public static IArchiveFormat? Detect(string path)
    {
        using var reader = ArchiveFileReader.Open(path);
        return Detect(reader);
    }

    /// <summary>
    /// The problem of a whole file no format recognises, for its one error line: the formats known, and what a format
    /// recognised by a companion file finds wrong with one beside it (a damaged companion is the likelier mistake).
    /// </summary>
    internal static string NotKnown(string path) =>
        "not an archive format ArchiveEmu knows (" + KnownNames + ")" + string.Concat(Paired.Select(f => f.NotKnownBecause(path)));

    // The formats recognised by a file beside the archive (IFollowingFormat's companions come through Routing).
    private static readonly IPairedFormat[] Paired = All.OfType<IPairedFormat>().ToArray();

    /// <summary>The format of the archive at <paramref name="source"/> (a file or a slice of one), or null if none recognises it.</summary>
    public static IArchiveFormat? Detect(ArchiveSource source)
    {
        using var reader = ArchiveFileReader.Open(source);
        return Detect(reader);
    }

    private static IArchiveFormat? Detect(ArchiveFileReader reader)
    {
        var head = reader.ReadHead(DetectHeadSize);
        var byContent = All.FirstOrDefault(f => f.Detect(head, reader.Length));
        if (reader.Source.IsSlice)
            return byContent; // a slice has no file beside it
        return Paired.FirstOrDefault(f => f.IsPaired(reader.Source.Path, byContent)) ?? byContent;
    }

    /// <summary>Detects the format and reads the index; an unknown format is an <see cref="ArchiveFormatException"/>.</summary>
    public static ArchiveIndex ReadIndex(ArchiveSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        var format = Detect(source) ?? throw new ArchiveFormatException(source.Name, 0,
            "not an archive format ArchiveEmu knows (" + KnownNames + ")");
        return format.ReadIndex(source);
    }

    /// <summary>Detects the format and reads the index; an unknown format is an <see cref="ArchiveFormatException"/>.</summary>
    public static ArchiveIndex ReadIndex(string path)
    {
        var format = Detect(path) ?? throw new ArchiveFormatException(Path.GetFullPath(path), 0, NotKnown(path));
        return format.ReadIndex(path);
    }
}
