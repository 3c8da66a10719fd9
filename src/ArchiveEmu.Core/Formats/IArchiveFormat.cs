using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>One archive format: detection, a validating index reader, and a builder of emulated archives.</summary>
internal interface IArchiveFormat
{
    /// <summary>Short lower-case name: "afs", "awb", "pak", "tar", "zip", "img".</summary>
    string Name { get; }

    /// <summary>The name messages list it by ("AFS", "IMG v1 with its .dir", "RenderWare TXD"): see <see cref="ArchiveFormats.KnownNames"/>.</summary>
    string DisplayName { get; }

    EntryAddressing Addressing { get; }

    /// <summary>
    /// How the entries of the archive at <paramref name="source"/> are addressed: <see cref="Addressing"/>, unless the format
    /// has both kinds (CPK: named, or ID-only), which a look at the archive's header tells. A header that cannot be read is an
    /// <see cref="ArchiveFormatException"/>.
    /// </summary>
    EntryAddressing AddressingOf(ArchiveSource source) => Addressing;

    /// <summary>
    /// How entry names compare, as the format's own readers and games compare them (IMG ignores case; PAK, tar and ZIP
    /// do not: docs/FORMATS.md, "Letter case of entry names"); unused for index formats.
    /// </summary>
    StringComparer NameComparer { get; }

    /// <summary>
    /// File name extensions this format's archives commonly have (".afs"), used only to warn about a mod folder so named
    /// that matches no game file; an archive is found by its content, never by its extension.
    /// </summary>
    IReadOnlyList<string> Extensions => [];

    /// <summary>
    /// True if the file looks like this format. <paramref name="head"/> holds the first bytes of the
    /// file (up to 64 KiB, fewer if the file is shorter); <paramref name="length"/> is the file's size.
    /// Must not throw on any input.
    /// </summary>
    bool Detect(ReadOnlySpan<byte> head, long length);

    /// <summary>
    /// Reads and validates the index of the archive at <paramref name="path"/>. Every count, size and
    /// offset is checked before use; a corrupt file is an <see cref="ArchiveFormatException"/> naming the
    /// file and the offset.
    /// </summary>
    ArchiveIndex ReadIndex(string path);

    /// <summary>
    /// Reads and validates the index of the archive at <paramref name="source"/>: a whole file, or a slice of one
    /// (an archive stored inside another), read in place. Offsets in the index are relative to the slice.
    /// </summary>
    ArchiveIndex ReadIndex(ArchiveSource source);

    /// <summary>
    /// Builds the emulated archive: <paramref name="original"/> (from this format's ReadIndex) with
    /// <paramref name="patch"/> applied. Unchanged entries are slices of the original, injected ones
    /// slices of their inputs, headers rebuilt in memory. A change the format cannot express (a delete
    /// where none is allowed, an index out of range) is an <see cref="ArchiveFormatException"/>.
    /// </summary>
    EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null);
}
