using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Img;

/// <summary>One directory record of an IMG v2 archive.</summary>
/// <param name="Name">The name as stored (its spelling is kept when the entry is replaced).</param>
/// <param name="NameField">The 24 stored name bytes, written back verbatim.</param>
/// <param name="Sector">Where the data starts, in 2048-byte sectors.</param>
/// <param name="Sectors">The data's size in sectors.</param>
/// <param name="Streaming">The second u16 (0 in every known file), kept for unchanged entries.</param>
internal sealed record ImgRecord(string Name, byte[] NameField, uint Sector, ushort Sectors, ushort Streaming) : IImgRecord;

/// <summary>The validated index of a GTA IMG v2 archive: its directory records in stored order.</summary>
internal sealed class ImgIndex : ArchiveIndex
{
    internal ImgIndex(ArchiveSource source, IReadOnlyList<ImgRecord> records)
        : base(source, records.Select((r, i) => new ArchiveEntry(i, r.Name, r.Sector * (long)ImgFormat.SectorSize, r.Sectors * (long)ImgFormat.SectorSize)).ToArray())
    {
        Records = records;
    }

    public override IArchiveFormat Format => ImgFormat.Instance;

    internal IReadOnlyList<ImgRecord> Records { get; }
}
