using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>An entry of an original archive: where its stored bytes are.</summary>
/// <param name="Index">Position in the archive's table, from 0.</param>
/// <param name="Name">The entry's name, or null where the format has none.</param>
/// <param name="Offset">Offset of the entry's stored bytes in the archive file.</param>
/// <param name="Size">Size of the stored bytes (for ZIP, the compressed size).</param>
internal sealed record ArchiveEntry(int Index, string? Name, long Offset, long Size);

/// <summary>
/// The validated index of an original archive. Formats derive from it to keep what their builder
/// needs (name tables, header fields to preserve).
/// </summary>
internal abstract class ArchiveIndex
{
    protected ArchiveIndex(ArchiveSource source, IReadOnlyList<ArchiveEntry> entries)
    {
        Source = source;
        Entries = entries;
    }

    /// <summary>Where the archive's bytes are: a whole file or a slice of one. Entry offsets are relative to its start.</summary>
    public ArchiveSource Source { get; }

    /// <summary>Full path of the file holding the original archive.</summary>
    public string Path => Source.Path;

    /// <summary>The holding file's size and mtime when the index was read.</summary>
    public FileIdentity Identity => Source.Identity;

    /// <summary>The archive's size in bytes (the file's, unless it is a slice).</summary>
    public long Length => Source.Length;

    /// <summary>
    /// Appends bytes [<paramref name="offset"/>, +<paramref name="length"/>) of the original archive to <paramref name="builder"/>:
    /// a slice of the holding file, shifted by where the archive starts in it, pinned to the identity the index was read with.
    /// </summary>
    public void AppendOriginal(VirtualFileBuilder builder, long offset, long length)
    {
        ArgumentNullException.ThrowIfNull(builder);
        // A reader that accepted a truncated file can still ask for a record's padding past its end: that is the file's fault.
        if (offset < 0 || length < 0 || offset > Source.Length - length)
            throw new ArchiveFormatException(Source.Name, offset, $"bytes [{offset}, {offset + length}) are past the end of the {Source.Length}-byte archive (truncated?)");
        builder.AppendFile(Source.Path, Source.Offset + offset, length, Source.Identity);
    }

    public IReadOnlyList<ArchiveEntry> Entries { get; }

    /// <summary>
    /// The entry a mod's index name addresses (<c>7.dds</c>, a folder <c>7/</c>): the one at that position, or for a format
    /// whose index names mean something else (an ID-only CPK: the ID) that entry; null when there is none.
    /// </summary>
    internal virtual ArchiveEntry? EntryAtIndexKey(int key) => key >= 0 && key < Entries.Count ? Entries[key] : null;

    /// <summary>
    /// Why <paramref name="entry"/>'s stored bytes are not its content and no codec can decode them (ZIP: an unsupported
    /// method), or null when they are its content or <see cref="StoredCodec"/> decodes them.
    /// </summary>
    internal virtual string? WhyNotInPlace(ArchiveEntry entry) => null;

    /// <summary>
    /// How <paramref name="entry"/> is stored when its stored bytes are its content only once decoded (ZIP deflate, CPK
    /// CRILAYLA), with the content's size; null when they are its content as is.
    /// </summary>
    internal virtual StoredEncoding? StoredCodec(ArchiveEntry entry) => null;

    /// <summary>The format that read it.</summary>
    public abstract IArchiveFormat Format { get; }
}
