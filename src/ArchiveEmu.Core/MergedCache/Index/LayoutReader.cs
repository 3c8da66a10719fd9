using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>
/// Reads a layout blob front to back: fixed-width little-endian fields and whole columns, every length checked against
/// the bytes left before it is used (a damaged layout is an <see cref="InvalidDataException"/>, never another exception).
/// </summary>
internal ref struct LayoutReader(byte[] bytes)
{
    public int Position { get; private set; }

    public readonly int Left => bytes.Length - Position;

    public byte ReadByte() => Take(1)[0];

    public int ReadInt32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));

    public long ReadInt64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));

    /// <summary>An i32 byte length, then that many bytes of UTF-8.</summary>
    public string ReadString() => Encoding.UTF8.GetString(Take(Count(1)));

    /// <summary>i64 size, i64 mtime and i64 ctime (UTC ticks), u64 inode; a time out of range is damage.</summary>
    public FileIdentity ReadIdentity()
    {
        var field = Take(32);
        long mtime = BinaryPrimitives.ReadInt64LittleEndian(field[8..]), ctime = BinaryPrimitives.ReadInt64LittleEndian(field[16..]);
        if ((ulong)mtime > (ulong)DateTime.MaxValue.Ticks || (ulong)ctime > (ulong)DateTime.MaxValue.Ticks)
            Corrupt("a file identity holds a time out of range");
        return new FileIdentity(BinaryPrimitives.ReadInt64LittleEndian(field), new DateTime(mtime, DateTimeKind.Utc),
            new DateTime(ctime, DateTimeKind.Utc), BinaryPrimitives.ReadUInt64LittleEndian(field[24..]));
    }

    /// <summary>An i32 count of records of at least <paramref name="minRecordSize"/> bytes: it may not promise more than the bytes left hold.</summary>
    public int Count(int minRecordSize)
    {
        int count = ReadInt32();
        if (count < 0 || (long)count * minRecordSize > Left)
            Corrupt("layout count exceeds its data");
        return count;
    }

    /// <summary>Skips a column of <paramref name="count"/> records of <paramref name="width"/> bytes; returns where it starts.</summary>
    public int Column(int count, int width)
    {
        int start = Position;
        long length = (long)count * width;
        if (count < 0 || length > Left)
            Corrupt("layout column exceeds its data");
        Position += (int)length;
        return start;
    }

    public ReadOnlySpan<byte> Take(int length)
    {
        if ((uint)length > (uint)Left)
            Corrupt("layout ends early");
        var span = new ReadOnlySpan<byte>(bytes, Position, length);
        Position += length;
        return span;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Corrupt(string message) => throw new InvalidDataException(message);
}
