using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Lays a merged table out as an emulated file: long runs are slices of the original or of a mod's file, short runs
/// (a merged 2-byte field, a segment's length, its padding) are bytes in one shared array.
/// </summary>
internal sealed class MergedTableWriter
{
    // A run shorter than this is copied into memory: as its own slice it would cost a 32-byte segment record plus a lookup
    // step and, for a reader crossing it, one more pread (~1 µs) — more than copying 64 bytes (a few ns) ever saves.
    internal const int MinSliceLength = 64;

    private readonly List<Piece> _pieces = [];
    private readonly MemoryStream _memory = new();
    private long _length;

    /// <summary>Appends <paramref name="bytes"/> as in-memory bytes.</summary>
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
            return;
        long at = _memory.Length;
        _memory.Write(bytes);
        if (_pieces.Count > 0 && _pieces[^1].Source is null && _pieces[^1].Offset + _pieces[^1].Length == at)
            _pieces[^1] = _pieces[^1] with { Length = _pieces[^1].Length + bytes.Length };
        else
            _pieces.Add(new Piece(null, at, bytes.Length));
        _length += bytes.Length;
    }

    /// <summary>Appends <paramref name="length"/> bytes of <paramref name="file"/> at <paramref name="offset"/>; a short run is copied from <paramref name="copy"/> (those same bytes, in memory).</summary>
    public void WriteRun(EntryInput file, long offset, int length, ReadOnlySpan<byte> copy)
    {
        if (length < MinSliceLength)
        {
            WriteBytes(copy[..length]);
            return;
        }
        _pieces.Add(new Piece(file, offset, length));
        _length += length;
    }

    /// <summary>
    /// Writes a merged segment's data: each run of bytes with one owner is a slice of its file (<paramref name="original"/>'s
    /// for <see cref="SegmentMerge.Original"/>, else the owning mod's in <paramref name="mods"/>).
    /// </summary>
    public void WriteSegment(SegmentMerge merge, SegmentSide original, IReadOnlyList<SegmentSide?> mods)
    {
        var owners = merge.Owners;
        for (int start = 0; start < owners.Length;)
        {
            int owner = owners[start], end = start + 1;
            while (end < owners.Length && owners[end] == owner)
                end++;
            var side = owner == SegmentMerge.Original ? original : mods[owner]!.Value;
            WriteRun(side.File, side.DataOffset + start, end - start, side.Data.AsSpan(start));
            start = end;
        }
    }

    /// <summary>The emulated file; in-memory runs share one array.</summary>
    public VirtualFile Build()
    {
        var memory = _memory.GetBuffer().AsMemory(0, (int)_memory.Length);
        var builder = new VirtualFileBuilder(expectedSegments: _pieces.Count);
        foreach (var piece in _pieces)
        {
            if (piece.Source is null)
                builder.AppendBytes(memory.Slice((int)piece.Offset, piece.Length));
            else
                piece.Source.AppendTo(builder, piece.Offset, piece.Length);
        }
        return builder.Build(_length);
    }

    private readonly record struct Piece(EntryInput? Source, long Offset, int Length);
}

/// <summary>One side of a segment merge: the file, where the segment's data starts in it, and that data in memory.</summary>
internal readonly record struct SegmentSide(EntryInput File, long DataOffset, byte[] Data);
