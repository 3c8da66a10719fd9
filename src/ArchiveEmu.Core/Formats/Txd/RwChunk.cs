using System.Buffers.Binary;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// A RenderWare binary stream chunk header: u32 type, u32 size of the data after the 12-byte header, u32 library ID
/// stamp (the RW version, kept verbatim by every rebuilt chunk). All little-endian.
/// </summary>
internal readonly record struct RwChunk(uint Type, uint Size, uint Version)
{
    internal const int HeaderSize = 12;
    internal const uint Struct = 0x01;
    internal const uint Extension = 0x03;
    internal const uint TextureNative = 0x15;
    internal const uint TextureDictionary = 0x16;

    /// <summary>The chunk's whole length, header included.</summary>
    public long Length => HeaderSize + (long)Size;

    public static RwChunk Read(ReadOnlySpan<byte> header) => new(
        BinaryPrimitives.ReadUInt32LittleEndian(header),
        BinaryPrimitives.ReadUInt32LittleEndian(header[4..]),
        BinaryPrimitives.ReadUInt32LittleEndian(header[8..]));

    public static void Write(Span<byte> header, uint type, long size, uint version)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(header, type);
        BinaryPrimitives.WriteUInt32LittleEndian(header[4..], checked((uint)size));
        BinaryPrimitives.WriteUInt32LittleEndian(header[8..], version);
    }
}
