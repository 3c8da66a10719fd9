using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>An entry of an original archive: where its stored bytes are.</summary>
/// <param name="Index">Position in the archive's table, from 0.</param>
/// <param name="Name">The entry's name, or null where the format has none.</param>
/// <param name="Offset">Offset of the entry's stored bytes in the archive file.</param>
/// <param name="Size">Size of the stored bytes (for ZIP, the compressed size).</param>
public sealed record ArchiveEntry(int Index, string? Name, long Offset, long Size);

/// <summary>
/// The validated index of an original archive. Formats derive from it to keep what their builder
/// needs (name tables, header fields to preserve).
/// </summary>
public abstract class ArchiveIndex
{
    protected ArchiveIndex(string path, FileIdentity identity, IReadOnlyList<ArchiveEntry> entries)
    {
        Path = path;
        Identity = identity;
        Entries = entries;
    }

    /// <summary>Full path of the original archive.</summary>
    public string Path { get; }

    /// <summary>The original's size and mtime when the index was read.</summary>
    public FileIdentity Identity { get; }

    public IReadOnlyList<ArchiveEntry> Entries { get; }

    /// <summary>The format that read it.</summary>
    public abstract IArchiveFormat Format { get; }
}
