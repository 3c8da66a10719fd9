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
        var name = Path.GetFileName(file);
        byte[]? program = null;
        byte[]? changes = null;
        string? refused = null; // said after the read, as it is, not as an archive that cannot be unpacked
        try
        {
            using var gzip = new GZipStream(File.OpenRead(file), CompressionMode.Decompress);
            using var tar = new TarReader(gzip);
            while (refused is null && tar.GetNextEntry() is { } entry)
            {
                if (entry.Name == $"{folder}/archiveemu")
                    (program, refused) = Contents(entry, MaxProgramBytes, name);
                else if (entry.Name == $"{folder}/CHANGES.md")
                    (changes, refused) = Contents(entry, MaxChangesBytes, name);
            }
        }
        catch (Exception e) when (e is InvalidDataException or FormatException or EndOfStreamException)
        {
            throw new InvalidDataException($"{name} cannot be unpacked ({e.Message})");
        }
        if (refused is not null)
            throw new InvalidDataException(refused);
        return new ReleaseArchive(
            program ?? throw new InvalidDataException($"{name} holds no {folder}/archiveemu"),
            changes is null ? "" : System.Text.Encoding.UTF8.GetString(changes));
    }

    private static (byte[]? Bytes, string? Refused) Contents(TarEntry entry, long max, string archive)
    {
        if (entry.EntryType is not (TarEntryType.RegularFile or TarEntryType.V7RegularFile) || entry.DataStream is null)
            return (null, $"{archive}: {entry.Name} is not a plain file ({entry.EntryType})");
        if (entry.Length > max)
            return (null, $"{archive}: {entry.Name} is {entry.Length} bytes, more than a release's {max}");
        var bytes = new byte[entry.Length];
        entry.DataStream.ReadExactly(bytes);
        return (bytes, null);
    }
}
