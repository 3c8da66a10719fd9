namespace ArchiveEmu.Core.Formats;

/// <summary>The formats ArchiveEmu knows, and detection of which one a file is.</summary>
public static class ArchiveFormats
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
        Img.ImgV1Format.Instance, // no magic: Detect finds it by the .dir beside it, after every format with one, before PAK
        Tar.TarFormat.Instance,
        Zip.ZipFormat.Instance,
        Txd.TxdFormat.Instance, // a chunk type (0x16) and sizes that add up, weaker than a magic: after those, before PAK
        Pak.PakFormat.Instance, // heuristic (no magic): keep last
    };

    /// <summary>The formats' names as messages list them.</summary>
    internal const string KnownNames = "AFS, AWB, ACB, CPK, PAK, tar, ZIP, IMG v2, IMG v1 with its .dir, RenderWare TXD, SPD, SPR";

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
    /// The problem of a whole file no format recognises, for its one error line: the formats known, and what is wrong with an
    /// IMG v1 directory beside it when there is one (a damaged <c>x.dir</c> is the likelier mistake than an unknown format).
    /// </summary>
    internal static string NotKnown(string path) =>
        "not an archive format ArchiveEmu knows (" + KnownNames + ")"
        + (Img.ImgV1Format.DirectoryOf(path) is not null && Img.ImgV1Format.WhyNotPair(path) is { } why ? "; as IMG v1: " + why
            : Img.ImgV1Format.DataOf(path) is { } data ? $"; it is the directory of the IMG v1 archive {Path.GetFileName(data)}, whose entries are addressed through {Path.GetFileName(data)}/"
            : "");

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
        // IMG v1's data file has no magic: a whole file with its .dir beside it is one, unless a magic said otherwise (VER2 wins);
        // PAK's and TXD's guesses lose (a gta3.img may start with a TXD entry).
        if ((byContent is null || byContent == Pak.PakFormat.Instance || byContent == Txd.TxdFormat.Instance) && !reader.Source.IsSlice && Img.ImgV1Format.IsPair(reader.Source.Path))
            return Img.ImgV1Format.Instance;
        return byContent;
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
