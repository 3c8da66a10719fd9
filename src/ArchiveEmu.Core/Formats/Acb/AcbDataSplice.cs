using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// Lays out an ACB with some Header-table data values replaced: the table's bytes before its data pool (header,
/// schema, row, strings: a few KiB) rebuilt in memory with the new size and data offsets, then the data pool as slices
/// of the original around the new values, and any bytes after the table as they were. Everything after a replaced
/// value moves by its size change rounded up to 32 bytes, so every later value keeps its alignment modulo 32.
/// </summary>
internal static class AcbDataSplice
{
    /// <summary>What the data keeps of its place modulo this (the in-memory AWB's alignment inside the ACB is not documented).</summary>
    private const int MoveGranule = 32;

    public static VirtualFile Build(AcbFile acb, IReadOnlyDictionary<UtfDataField, EntryInput> replacements, FileHandlePool? pool = null)
    {
        var source = acb.Source;
        if (acb.Masked)
            throw new ArchiveFormatException(source.Name, 0, "the ACB's Header table is XOR-masked; emulating a masked ACB is not supported");
        var moves = replacements.OrderBy(r => r.Key.Offset).Select(r => new Move(r.Key, r.Value)).ToArray();
        RefuseSharedBytes(acb, moves);

        var prefix = (byte[])acb.Prefix.Clone();
        long growth = moves.Sum(m => m.Delta);
        long newTableSize = acb.TableSize + growth;
        if (newTableSize - 8 > uint.MaxValue)
            throw new ArchiveFormatException(source.Name, 4, $"the emulated ACB table of {newTableSize} bytes does not fit @UTF's 32-bit size");
        BinaryPrimitives.WriteUInt32BigEndian(prefix.AsSpan(4), (uint)(newTableSize - 8));
        long dataAt = prefix.Length;
        foreach (var field in acb.DataFields)
        {
            var move = moves.FirstOrDefault(m => m.Field == field);
            long offset = NewOffset(field, moves) - dataAt;
            long size = move?.Input.Length ?? field.Size;
            if (offset > uint.MaxValue || size > uint.MaxValue)
                throw new ArchiveFormatException(source.Name, field.FieldAt, $"column {field.Column}'s new data [{offset}, +{size}) does not fit @UTF's 32-bit fields");
            BinaryPrimitives.WriteUInt32BigEndian(prefix.AsSpan((int)field.FieldAt), (uint)offset);
            BinaryPrimitives.WriteUInt32BigEndian(prefix.AsSpan((int)field.FieldAt + 4), (uint)size);
        }

        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * moves.Length + 4);
        builder.AppendBytes(prefix);
        long cursor = dataAt;
        foreach (var move in moves)
        {
            AppendOriginal(builder, source, cursor, move.Field.Offset - cursor);
            move.Input.AppendTo(builder);
            builder.AppendZeros(move.Padding);
            cursor = move.Field.End;
        }
        AppendOriginal(builder, source, cursor, source.Length - cursor);
        return builder.Build();
    }

    /// <summary>Where <paramref name="field"/>'s data starts once every replaced value before it has changed size.</summary>
    private static long NewOffset(UtfDataField field, Move[] moves)
    {
        long offset = field.Offset;
        foreach (var move in moves)
            if (move.Field != field && move.Field.End <= field.Offset)
                offset += move.Delta;
        return offset;
    }

    /// <summary>A replaced value must not share bytes with another value: that one would change too.</summary>
    private static void RefuseSharedBytes(AcbFile acb, Move[] moves)
    {
        foreach (var move in moves)
            foreach (var other in acb.DataFields)
                if (other != move.Field && other.Size > 0 && move.Field.Size > 0 && other.Offset < move.Field.End && move.Field.Offset < other.End)
                    throw new ArchiveFormatException(acb.Source.Name, other.FieldAt,
                        $"column {other.Column}'s data shares bytes with column {move.Field.Column}'s, which is replaced");
    }

    private static void AppendOriginal(VirtualFileBuilder builder, ArchiveSource source, long offset, long length)
    {
        if (length > 0)
            builder.AppendFile(source.Path, source.Offset + offset, length, source.Identity);
    }

    /// <summary>One replaced value: its new bytes, and how far it moves what follows it (its size change, rounded up to the granule).</summary>
    private sealed class Move(UtfDataField field, EntryInput input)
    {
        public UtfDataField Field { get; } = field;
        public EntryInput Input { get; } = input;
        public long Delta { get; } = RoundUpToGranule(input.Length - field.Size);
        public long Padding => Delta - (Input.Length - Field.Size);

        // Toward +infinity, so the padding after the new value is never negative: -40 → -32 (8 bytes of padding).
        private static long RoundUpToGranule(long change) =>
            change >= 0 ? (change + MoveGranule - 1) / MoveGranule * MoveGranule : -(-change / MoveGranule * MoveGranule);
    }
}
