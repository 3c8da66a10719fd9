using System.Formats.Tar;
using System.IO.Compression;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// What <c>archiveemu update</c> takes from a linux release archive: <c>archiveemu-V-RID/archiveemu</c> (the program) and
/// <c>archiveemu-V-RID/CHANGES.md</c> (every version's changes up to V). Other entries are left; links, devices and sizes
/// past the limits are refused.
/// </summary>
internal sealed record ReleaseArchive(byte[] Program, string Changes)
{
    private const long MaxProgramBytes = 256L << 20;
    private const long MaxChangesBytes = 4L << 20;

    public static ReleaseArchive Read(string file, string folder)
    {
        byte[]? program = null;
        string? changes = null;
        try
        {
            using var gzip = new GZipStream(File.OpenRead(file), CompressionMode.Decompress);
            using var tar = new TarReader(gzip);
            while (tar.GetNextEntry() is { } entry)
            {
                if (entry.Name == $"{folder}/archiveemu")
                    program = Contents(entry, MaxProgramBytes, file);
                else if (entry.Name == $"{folder}/CHANGES.md")
                    changes = System.Text.Encoding.UTF8.GetString(Contents(entry, MaxChangesBytes, file));
            }
        }
        catch (Exception e) when (e is InvalidDataException or FormatException or EndOfStreamException)
        {
            throw new InvalidDataException($"{Path.GetFileName(file)} cannot be unpacked ({e.Message})");
        }
        return new ReleaseArchive(
            program ?? throw new InvalidDataException($"{Path.GetFileName(file)} holds no {folder}/archiveemu"),
            changes ?? "");
    }

    private static byte[] Contents(TarEntry entry, long max, string file)
    {
        if (entry.EntryType is not (TarEntryType.RegularFile or TarEntryType.V7RegularFile) || entry.DataStream is null)
            throw new InvalidDataException($"{Path.GetFileName(file)}: {entry.Name} is not a plain file ({entry.EntryType})");
        if (entry.Length > max)
            throw new InvalidDataException($"{Path.GetFileName(file)}: {entry.Name} is {entry.Length} bytes, more than a release's {max}");
        var bytes = new byte[entry.Length];
        entry.DataStream.ReadExactly(bytes);
        return bytes;
    }
}
