using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// A CRI ACB cue sheet served as an archive (docs/DESIGN.md, "ACB follows its AWB"): its entries are those of the AWB it
/// carries inside (AwbFile), so a mod folder named like the ACB (<c>bgm.acb/12.hca</c>) changes entry 12 of that AWB; the
/// ACB is rebuilt around the emulated AWB by <see cref="AcbBuilder"/>. An ACB with no in-memory AWB has no entries: it
/// is emulated only when the streamed AWB beside it is (<see cref="BuildFollowing"/>).
/// </summary>
internal sealed partial class AcbFormat : ArchiveFormat<AcbIndex>
{
    public static AcbFormat Instance { get; } = new();

    public override string Name => "acb";
    public override string DisplayName => "ACB";
    public override EntryAddressing Addressing => EntryAddressing.ByIndex;
    public override StringComparer NameComparer => StringComparer.Ordinal;
    public override IReadOnlyList<string> Extensions { get; } = [".acb"];

    /// <summary>An @UTF table (plain or masked) at offset 0 named "Header" whose size fits the file (vgmstream acb.c checks the same).</summary>
    public override bool Detect(ReadOnlySpan<byte> head, long length)
    {
        if (head.Length < UtfTableReader.HeaderSize)
            return false;
        bool masked = !head.StartsWith("@UTF"u8);
        if (masked && !UtfMask.IsMaskedUtf(head))
            return false;
        var t = head;
        if (masked)
        {
            var unmasked = head.ToArray(); // only masked heads pay for a copy
            UtfMask.Apply(unmasked);
            t = unmasked;
        }
        long size = 8L + BinaryPrimitives.ReadUInt32BigEndian(t[4..]);
        long nameAt = 8L + BinaryPrimitives.ReadUInt32BigEndian(t[0x0C..]) + BinaryPrimitives.ReadUInt32BigEndian(t[0x14..]);
        return size <= length && nameAt <= t.Length - "Header\0"u8.Length && t[(int)nameAt..].StartsWith("Header\0"u8);
    }

    public override ArchiveIndex ReadIndex(ArchiveSource source)
    {
        var acb = AcbFile.Read(source);
        var memory = acb.MemoryAwb is null ? null : (AwbIndex)AwbFormat.Instance.ReadIndex(acb.MemoryAwbSource());
        return new AcbIndex(acb, memory);
    }

    protected override EmulatedArchive BuildArchive(AcbIndex original, ArchivePatch patch, FileHandlePool? pool) =>
        BuildFollowing(original, patch, null, "", pool);

    // Its entries are its in-memory AWB's, built (and the ACB spliced) even with no change.
    protected override bool UnchangedIsOriginal => false;

    /// <summary>
    /// The emulated ACB: its in-memory AWB with <paramref name="patch"/> applied, and, when <paramref name="streamAwb"/> is
    /// given, the header copy and hash of the streamed AWB named <paramref name="streamAwbName"/> (file name without
    /// extension) made the emulated one's. Reading the streamed AWB whole for its MD5 is the cost (<see cref="AcbBuilder"/>).
    /// </summary>
    public static EmulatedArchive BuildFollowing(ArchiveIndex original, ArchivePatch patch, VirtualFile? streamAwb, string streamAwbName, FileHandlePool? pool = null)
    {
        var index = AsIndex(original);
        if (index.MemoryAwb is null && patch.Changes.Count > 0)
            throw new ArchiveFormatException(index.Source.Name, 0, "the ACB holds no in-memory AWB (AwbFile) for entry "
                + $"{patch.Changes[0].Key} (from {patch.Changes[0].Origin}); a streamed AWB's entries go in the folder named like the .awb");
        EmulatedArchive? inner = null;
        try
        {
            if (index.MemoryAwb is { } awb)
                inner = AwbFormat.Instance.Build(awb, patch, pool);
            var acbPatch = new AcbPatch(streamAwb, streamAwbName, patch.Changes.Count > 0 ? inner!.File : null);
            var file = AcbBuilder.Build(index.Acb, acbPatch, pool);
            return new EmulatedArchive(index, file, inner?.Entries ?? []);
        }
        finally
        {
            inner?.Dispose(); // the ACB holds its own references to the AWB's segments
        }
    }
}

/// <summary>A validated ACB and, when it carries one, its in-memory AWB's index; the entries are that AWB's, placed in the ACB.</summary>
internal sealed class AcbIndex : ArchiveIndex
{
    internal AcbIndex(AcbFile acb, AwbIndex? memoryAwb)
        : base(acb.Source, memoryAwb is null ? [] : memoryAwb.Entries.Select(e => e with { Offset = acb.MemoryAwb!.Offset + e.Offset }).ToArray())
    {
        Acb = acb;
        MemoryAwb = memoryAwb;
    }

    public override IArchiveFormat Format => AcbFormat.Instance;

    public AcbFile Acb { get; }

    /// <summary>The in-memory AWB's index (offsets relative to the AWB), or null.</summary>
    public AwbIndex? MemoryAwb { get; }
}
