namespace ArchiveEmu.Core.Formats;

/// <summary>An archive that is corrupt or not what it claims: names the file and the offset of the bad field.</summary>
public sealed class ArchiveFormatException : IOException
{
    public ArchiveFormatException(string path, long offset, string problem)
        : base($"{path}: {problem} (at offset 0x{offset:X})")
    {
        ArchivePath = path;
        Offset = offset;
        Problem = problem;
    }

    public string ArchivePath { get; }
    public long Offset { get; }
    public string Problem { get; }
}
