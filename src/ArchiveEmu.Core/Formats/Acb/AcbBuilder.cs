using System.Security.Cryptography;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>What changes in an ACB when its AWBs are emulated.</summary>
/// <param name="StreamAwb">The emulated streamed AWB (its header copy and hash are rebuilt from it), or null.</param>
/// <param name="StreamAwbName">The streamed AWB's file name without extension, which picks its row when the ACB keeps several.</param>
/// <param name="MemoryAwb">The emulated in-memory AWB, put in place of AwbFile (its segments, not a copy), or null.</param>
internal sealed record AcbPatch(VirtualFile? StreamAwb = null, string StreamAwbName = "", VirtualFile? MemoryAwb = null);

/// <summary>
/// Builds the emulated ACB that goes with emulated AWBs: the streamed AWB's header copy replaced by the emulated AWB's
/// header, its MD5 recomputed where the ACB keeps one, the in-memory AWB replaced by the emulated one; everything else a
/// slice of the original (<see cref="AcbDataSplice"/>).
/// </summary>
internal static class AcbBuilder
{
    /// <summary>
    /// The emulated ACB as a virtual file (the caller owns it). The hash costs one read of the whole emulated streamed AWB
    /// (MD5 at a few hundred MB/s, bounded by the disk for its original and mod files), done once per build and only
    /// when the ACB keeps a hash that is not all zeros.
    /// </summary>
    public static VirtualFile Build(AcbFile acb, AcbPatch patch, FileHandlePool? pool = null)
    {
        var replacements = new Dictionary<UtfDataField, EntryInput>();
        if (patch.StreamAwb is { } streamed)
        {
            var header = acb.StreamAwbHeader ?? throw new ArchiveFormatException(acb.Source.Name, 0,
                "the ACB keeps no StreamAwbAfs2Header: it has no streamed AWB whose header could be patched");
            int row = acb.StreamAwbRow(patch.StreamAwbName);
            var copy = HeaderCopy(streamed, header.Values[row], acb.Source.Name);
            replacements[header.Field] = EntryInput.FromBytes(header.With(row, copy));
            if (acb.StreamAwbHash is { } hash && row < hash.Values.Count && hash.Values[row].AsSpan().ContainsAnyExcept((byte)0))
                replacements[hash.Field] = EntryInput.FromBytes(hash.With(row, Md5Of(streamed)));
        }
        if (patch.MemoryAwb is { } memory)
        {
            var field = acb.MemoryAwb ?? throw new ArchiveFormatException(acb.Source.Name, 0, "the ACB holds no in-memory AWB (AwbFile) to replace");
            replacements[field] = EntryInput.FromVirtualFile(memory, $"{acb.Source.Name}/AwbFile");
        }
        return AcbDataSplice.Build(acb, replacements, pool);
    }

    /// <summary>
    /// The emulated AWB's first bytes, as many as the original copy held: its id and position table, plus whatever the
    /// original copy held past its own table (kept the same length).
    /// </summary>
    private static byte[] HeaderCopy(VirtualFile awb, byte[] originalCopy, string acbName)
    {
        Span<byte> head = stackalloc byte[AwbHeader.Size];
        if (awb.Length < AwbHeader.Size || awb.Read(0, head) < AwbHeader.Size || !head.StartsWith("AFS2"u8))
            throw new ArchiveFormatException(acbName, 0, $"the streamed AWB given for this ACB ({awb.Length} bytes) does not start with an AFS2 header");
        long tableEnd = AcbFile.CopiedTableEnd(head);
        long length = Math.Min(awb.Length, tableEnd + originalCopy.Length - AcbFile.CopiedTableEnd(originalCopy));
        if (length > ArchiveFileReader.MaxHeaderRead)
            throw new ArchiveFormatException(acbName, 0, $"the streamed AWB's {length}-byte header is larger than any header copy an ACB can hold");
        var copy = new byte[length];
        awb.ReadExactly(0, copy);
        return copy;
    }

    private static byte[] Md5Of(VirtualFile file)
    {
        using var md5 = IncrementalHash.CreateHash(HashAlgorithmName.MD5);
        var buffer = new byte[1 << 20];
        for (long at = 0; at < file.Length;)
        {
            int n = file.Read(at, buffer);
            if (n == 0)
                throw new IOException($"the emulated AWB ended at {at} of its {file.Length} bytes while hashing it");
            md5.AppendData(buffer, 0, n);
            at += n;
        }
        return md5.GetHashAndReset();
    }
}
