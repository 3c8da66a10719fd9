using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.TestSupport.Textures;

/// <summary>Writes GTA III / Vice City IMG v1 pairs (x.img raw data, x.dir 32-byte records) from the gtamods wiki, for tests.</summary>
public static class ImgV1TestWriter
{
    public const int Sector = 2048, RecordSize = 32, NameSize = 24;

    /// <summary>The .img (entries in order, each zero-padded to whole sectors) and the .dir describing it.</summary>
    public static (byte[] Img, byte[] Dir) Write(IReadOnlyList<(string Name, byte[] Data)> entries)
    {
        var img = new MemoryStream();
        var dir = new byte[entries.Count * RecordSize];
        for (int i = 0; i < entries.Count; i++)
        {
            var (name, data) = entries[i];
            if (Encoding.ASCII.GetByteCount(name) >= NameSize)
                throw new ArgumentException($"name {name} is longer than {NameSize - 1} characters");
            long sectors = (data.Length + Sector - 1) / Sector;
            var record = dir.AsSpan(i * RecordSize, RecordSize);
            BinaryPrimitives.WriteUInt32LittleEndian(record, checked((uint)(img.Position / Sector)));
            BinaryPrimitives.WriteUInt32LittleEndian(record[4..], checked((uint)sectors));
            Encoding.ASCII.GetBytes(name).CopyTo(record[8..]);
            img.Write(data);
            img.Write(new byte[sectors * Sector - data.Length]);
        }
        return (img.ToArray(), dir);
    }

    /// <summary>Writes <paramref name="baseName"/>.img and .dir into <paramref name="folder"/>; returns the .img path.</summary>
    public static string WriteFiles(string folder, string baseName, IReadOnlyList<(string Name, byte[] Data)> entries)
    {
        var (img, dir) = Write(entries);
        File.WriteAllBytes(Path.Combine(folder, baseName + ".dir"), dir);
        var imgPath = Path.Combine(folder, baseName + ".img");
        File.WriteAllBytes(imgPath, img);
        return imgPath;
    }
}
