using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Formats;

/// <summary>How an entry is stored when its stored bytes are not its content, and how big its content is.</summary>
/// <param name="Codec">What decodes the stored bytes.</param>
/// <param name="ContentLength">The content's size as the archive records it: the decoded bytes must be exactly this many.</param>
internal sealed record StoredEncoding(EntryCodec Codec, long ContentLength);

/// <summary>
/// Decodes an entry stored encoded (a ZIP entry deflated, a CPK entry CRILAYLA-compressed) so that an archive inside it can
/// be read (docs/DESIGN.md, "Archives inside archives"): the decoded content is written once, to a file.
/// </summary>
internal abstract class EntryCodec
{
    /// <summary>
    /// The folder of the merged file cache that holds decoded entries (<c>&lt;hash&gt;.bin</c>, each with a <c>.used</c> marker
    /// touched at every use), read by routing and pruned by the cache's <c>gc</c>.
    /// </summary>
    public const string CacheFolderName = "decoded";

    /// <summary>Names the codec in cache keys and messages ("deflate", "CRILAYLA").</summary>
    public abstract string Name { get; }

    /// <summary>
    /// Writes the content of the entry stored at <paramref name="stored"/> to <paramref name="destination"/> from offset 0:
    /// exactly <paramref name="contentLength"/> bytes. A damaged stream, or one that decodes to another size, is an
    /// <see cref="ArchiveFormatException"/> naming the holding file and the offset; a holding file that changed since
    /// <paramref name="stored"/> was made is an <see cref="IOException"/>.
    /// </summary>
    public abstract void Decode(ArchiveSource stored, long contentLength, SafeFileHandle destination);

    /// <summary>Opens the holding file of <paramref name="stored"/>, refusing one that is no longer the file the index was read from.</summary>
    protected static SafeFileHandle OpenStored(ArchiveSource stored)
    {
        var handle = File.OpenHandle(stored.Path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        if (FileIdentity.Of(handle) != stored.Identity)
        {
            handle.Dispose();
            throw new IOException($"{stored.Path}: changed since its index was read; read it again");
        }
        return handle;
    }

    public override string ToString() => Name;
}
