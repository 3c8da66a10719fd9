namespace ArchiveEmu.TestSupport.Textures;

/// <summary>An IMG v1 entry as read back: its name, sector span and its whole sectors' bytes.</summary>
public sealed record ImgV1Entry(string Name, long Sector, long Sectors, byte[] Bytes);

/// <summary>
/// Re-reads a GTA IMG v1 pair (.dir of 32-byte {sector offset, sector count, name[24]} records, .img raw sectors) strictly:
/// the .dir a whole number of records, the .img whole sectors, every name NUL-terminated and non-empty, every entry inside
/// the .img and no two overlapping. Anything else is an InvalidDataException naming the file and offset.
/// </summary>
public static class ImgV1IndependentReader
{
    public static IReadOnlyList<ImgV1Entry> Read(byte[] img, byte[] dir)
    {
        var d = new LittleEndianInput(dir, "IMG v1 .dir");
        var i = new LittleEndianInput(img, "IMG v1 .img");
        if (dir.Length % ImgV1TestWriter.RecordSize != 0)
            throw d.Error(dir.Length - dir.Length % ImgV1TestWriter.RecordSize, $"{dir.Length} bytes is not a whole number of 32-byte records");
        if (img.Length % ImgV1TestWriter.Sector != 0)
            throw i.Error(img.Length - img.Length % ImgV1TestWriter.Sector, $"{img.Length} bytes is not a whole number of 2048-byte sectors");
        var entries = new List<ImgV1Entry>();
        for (long at = 0; at < dir.Length; at += ImgV1TestWriter.RecordSize)
        {
            long sector = d.U32(at, "sector offset"), sectors = d.U32(at + 4, "sector count");
            string name = d.Name(at + 8, ImgV1TestWriter.NameSize, "entry name");
            if (name.Length == 0)
                throw d.Error(at + 8, "an empty entry name");
            long start = sector * ImgV1TestWriter.Sector, length = sectors * ImgV1TestWriter.Sector;
            if (start + length > img.Length)
                throw d.Error(at, $"{name} spans sectors {sector}..{sector + sectors}, past the .img's {img.Length / ImgV1TestWriter.Sector}");
            entries.Add(new ImgV1Entry(name, sector, sectors, i.Slice(start, length, name)));
        }
        var spans = entries.Select((e, n) => (e, n)).Where(x => x.e.Sectors > 0).OrderBy(x => x.e.Sector).ToList();
        for (int k = 1; k < spans.Count; k++)
            if (spans[k - 1].e.Sector + spans[k - 1].e.Sectors > spans[k].e.Sector)
                throw d.Error((long)spans[k].n * ImgV1TestWriter.RecordSize, $"{spans[k].e.Name} overlaps {spans[k - 1].e.Name}");
        return entries;
    }

    /// <summary>Reads <paramref name="imgPath"/> and the .dir beside it.</summary>
    public static IReadOnlyList<ImgV1Entry> ReadFiles(string imgPath) =>
        Read(File.ReadAllBytes(imgPath), File.ReadAllBytes(Path.ChangeExtension(imgPath, ".dir")));
}
