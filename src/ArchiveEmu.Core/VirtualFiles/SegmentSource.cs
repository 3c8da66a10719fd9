namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>Where a segment's bytes come from: a slice of a file, bytes in memory, or zeros.</summary>
internal abstract class SegmentSource
{
    private protected SegmentSource() { }

    /// <summary>Reads exactly <c>destination.Length</c> bytes at <paramref name="sourceOffset"/> or throws.</summary>
    internal abstract void ReadExactly(long sourceOffset, Span<byte> destination);

    /// <summary>A short human description, for listings and error messages.</summary>
    public abstract string Describe();
}

/// <summary>Bytes held in memory, such as a rebuilt archive header.</summary>
internal sealed class MemorySource : SegmentSource
{
    private readonly byte[]? _array; // set when the memory is a plain array: skips Memory<T>.Span's type checks
    private readonly int _arrayOffset;

    public MemorySource(ReadOnlyMemory<byte> bytes)
    {
        Bytes = bytes;
        if (System.Runtime.InteropServices.MemoryMarshal.TryGetArray(bytes, out var segment))
            (_array, _arrayOffset) = (segment.Array, segment.Offset);
    }

    public ReadOnlyMemory<byte> Bytes { get; }

    internal override void ReadExactly(long sourceOffset, Span<byte> destination)
    {
        // A segment lies within Bytes (the builder slices it so); the array's own bounds check stays.
        System.Diagnostics.Debug.Assert(sourceOffset >= 0 && sourceOffset <= Bytes.Length - destination.Length);
        var bytes = _array is not null
            ? new ReadOnlySpan<byte>(_array, _arrayOffset + checked((int)sourceOffset), destination.Length)
            : Bytes.Span.Slice(checked((int)sourceOffset), destination.Length);
        bytes.CopyTo(destination);
    }

    public override string Describe() => $"memory ({Bytes.Length} bytes)";
}

/// <summary>Zero bytes: alignment padding and empty space, without storage.</summary>
internal sealed class ZeroSource : SegmentSource
{
    public static ZeroSource Instance { get; } = new();

    private ZeroSource() { }

    internal override void ReadExactly(long sourceOffset, Span<byte> destination) => destination.Clear();

    public override string Describe() => "zeros";
}
