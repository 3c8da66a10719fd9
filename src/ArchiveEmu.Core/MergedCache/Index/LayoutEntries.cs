using System.Buffers.Binary;
using System.Collections;
using System.Text;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>
/// The entry list of a restored layout, read in place from the layout's columns: an entry (and its name string) is made
/// only when asked for, since serving needs none of them and a summary only their counts by state. Validated whole on
/// construction, so no later access can fail.
/// </summary>
internal sealed class LayoutEntries : IReadOnlyList<EmulatedEntry>, IEntryStateCounts
{
    public const int RecordBytes = 4 + 8 + 1 + 4 + 4; // index, size, flags, origin, name end: one column each
    public const byte NoName = 0x80; // in the flags byte, beside the state

    private readonly byte[] _bytes;
    private readonly int _count, _indexes, _sizes, _flags, _origins, _nameEnds, _names;
    private readonly string[] _originNames;
    private readonly int[] _byState = new int[4];
    private EmulatedEntry?[]? _made; // made on the first entry asked for: serving asks for none

    /// <summary>Reads the origins and the entry columns at the reader's position (docs/FORMATS.md, "The merged file cache on disk").</summary>
    public LayoutEntries(byte[] bytes, ref LayoutReader reader)
    {
        _bytes = bytes;
        _originNames = new string[reader.Count(4)];
        for (int i = 0; i < _originNames.Length; i++)
            _originNames[i] = reader.ReadString();
        _count = reader.Count(RecordBytes);
        _indexes = reader.Column(_count, 4);
        _sizes = reader.Column(_count, 8);
        _flags = reader.Column(_count, 1);
        _origins = reader.Column(_count, 4);
        _nameEnds = reader.Column(_count, 4);
        int namesLength = reader.Count(1);
        _names = reader.Column(namesLength, 1);
        Validate(namesLength);
    }

    /// <summary>Writes what the constructor reads: the distinct origins, then one column per field and the names in one block.</summary>
    public static void Write(BinaryWriter w, IReadOnlyList<EmulatedEntry> entries)
    {
        var origins = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var e in entries)
            origins.TryAdd(e.Origin, origins.Count);
        w.Write(origins.Count);
        foreach (var origin in origins.Keys)
            ArchiveLayout.WriteString(w, origin);
        w.Write(entries.Count);
        foreach (var e in entries)
            w.Write(e.Index);
        foreach (var e in entries)
            w.Write(e.Size);
        foreach (var e in entries)
            w.Write((byte)((byte)e.State | (e.Name is null ? NoName : 0)));
        foreach (var e in entries)
            w.Write(origins[e.Origin]);
        var names = new MemoryStream();
        foreach (var e in entries)
        {
            names.Write(Encoding.UTF8.GetBytes(e.Name ?? ""));
            w.Write(checked((int)names.Length));
        }
        w.Write(checked((int)names.Length));
        w.Write(names.GetBuffer(), 0, (int)names.Length);
    }

    public int Count => _count;

    public EmulatedEntry this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)_count, nameof(index));
            var made = _made ?? Interlocked.CompareExchange(ref _made, new EmulatedEntry?[_count], null) ?? _made;
            return made[index] ??= Make(index); // a race makes two equal records; either is right
        }
    }

    public int CountOf(EntryState state) => _byState[(int)state];

    public IEnumerator<EmulatedEntry> GetEnumerator()
    {
        for (int i = 0; i < _count; i++)
            yield return this[i];
    }

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    private EmulatedEntry Make(int i)
    {
        byte flags = _bytes[_flags + i];
        int start = NameStart(i), end = Int32(_nameEnds, i);
        string? name = (flags & NoName) != 0 ? null : Encoding.UTF8.GetString(_bytes, _names + start, end - start);
        return new EmulatedEntry(Int32(_indexes, i), name, BinaryPrimitives.ReadInt64LittleEndian(_bytes.AsSpan(_sizes + 8 * i)),
            (EntryState)(flags & 3), _originNames[Int32(_origins, i)]);
    }

    private void Validate(int namesLength)
    {
        int previousEnd = 0;
        for (int i = 0; i < _count; i++)
        {
            byte flags = _bytes[_flags + i];
            if ((flags & ~(NoName | 3)) != 0)
                LayoutReader.Corrupt($"layout entry {i} has unknown flags");
            _byState[flags & 3]++;
            if ((uint)Int32(_origins, i) >= (uint)_originNames.Length)
                LayoutReader.Corrupt($"layout entry {i} names no origin");
            int end = Int32(_nameEnds, i);
            if (end < previousEnd || end > namesLength)
                LayoutReader.Corrupt($"layout entry {i}'s name is outside the name block");
            previousEnd = end;
        }
        if (previousEnd != namesLength)
            LayoutReader.Corrupt("layout's name block holds bytes no entry names");
    }

    private int NameStart(int i) => i == 0 ? 0 : Int32(_nameEnds, i - 1);

    private int Int32(int column, int i) => BinaryPrimitives.ReadInt32LittleEndian(_bytes.AsSpan(column + 4 * i));
}
