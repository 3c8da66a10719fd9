namespace ArchiveEmu.Core.Formats.Img;

/// <summary>One 32-byte record of an IMG v1 directory (<c>x.dir</c>).</summary>
/// <param name="Name">The name as stored (its spelling is kept when the entry is replaced).</param>
/// <param name="NameField">The 24 stored name bytes, written back verbatim.</param>
/// <param name="Sector">Where the data starts in the <c>.img</c>, in 2048-byte sectors.</param>
/// <param name="Sectors">The data's size in sectors (a u32 in v1, where v2 has a u16).</param>
internal sealed record ImgV1Record(string Name, byte[] NameField, uint Sector, uint Sectors) : IImgRecord;

/// <summary>
/// The validated index of a GTA IMG v1 pair (GTA III, Vice City): the data file <c>x.img</c> is the archive's
/// <see cref="ArchiveIndex.Source"/>, and its directory <c>x.dir</c>, a file of its own, is <see cref="Directory"/>, read with
/// the identity it had so that what depends on the pair can notice when either file changes.
/// </summary>
internal sealed class ImgV1Index : ArchiveIndex
{
    internal ImgV1Index(ArchiveSource data, ArchiveSource directory, IReadOnlyList<ImgV1Record> records)
        : this(data, data, directory, records)
    {
    }

    private ImgV1Index(ArchiveSource source, ArchiveSource data, ArchiveSource directory, IReadOnlyList<ImgV1Record> records)
        : base(source, records.Select((r, i) => new ArchiveEntry(i, r.Name, r.Sector * (long)ImgFormat.SectorSize, r.Sectors * (long)ImgFormat.SectorSize)).ToArray())
    {
        Data = data;
        Directory = directory;
        Records = records;
    }

    /// <summary>
    /// The same pair seen from its directory: the original of the emulated <c>x.dir</c>, so that what reports an archive's
    /// original (its size, the bytes served from it, the cache's layout) names the .dir. Entry offsets stay in the data file.
    /// </summary>
    internal ImgV1Index DirectoryView() => new(Directory, Data, Directory, Records);

    /// <summary>The same pair seen from its data file, the archive proper (this index, unless it is the directory view).</summary>
    internal ImgV1Index DataView() => Source == Data ? this : new(Data, Data, Directory, Records);

    /// <summary>The data file <c>x.img</c>, as it was when the index was read.</summary>
    internal ArchiveSource Data { get; }

    public override IArchiveFormat Format => ImgV1Format.Instance;

    /// <summary>The directory file <c>x.dir</c>, as it was when the index was read.</summary>
    internal ArchiveSource Directory { get; }

    internal IReadOnlyList<ImgV1Record> Records { get; }
}
