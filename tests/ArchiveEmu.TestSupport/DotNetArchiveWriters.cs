using System.Formats.Tar;
using System.IO.Compression;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// ZIP and tar originals written by .NET's own System.IO.Compression and System.Formats.Tar (not ArchiveEmu's code),
/// for fixtures that Python's zipfile/tarfile write on Linux: on Windows (the check under Wine) there is no python3.
/// </summary>
public static class DotNetArchiveWriters
{
    public static void WriteZip(string path, params (string Name, byte[] Data, bool Deflate)[] entries)
    {
        using var zip = ZipFile.Open(path, ZipArchiveMode.Create);
        foreach (var (name, data, deflate) in entries)
        {
            var entry = zip.CreateEntry(name, deflate ? CompressionLevel.Optimal : CompressionLevel.NoCompression);
            entry.LastWriteTime = new DateTimeOffset(2020, 1, 1, 0, 0, 0, TimeSpan.Zero);
            using var stream = entry.Open();
            stream.Write(data);
        }
    }

    public static void WriteTar(string path, params (string Name, byte[] Data)[] entries)
    {
        using var file = File.Create(path);
        using var tar = new TarWriter(file, TarEntryFormat.Pax);
        foreach (var (name, data) in entries)
        {
            tar.WriteEntry(new PaxTarEntry(TarEntryType.RegularFile, name)
            {
                DataStream = new MemoryStream(data),
                ModificationTime = DateTimeOffset.FromUnixTimeSeconds(1_000_000),
            });
        }
    }

    /// <summary>The bytes of <c>s * n</c> in Python: <paramref name="unit"/> repeated.</summary>
    public static byte[] Repeat(byte[] unit, int count) => Enumerable.Repeat(unit, count).SelectMany(b => b).ToArray();
}
