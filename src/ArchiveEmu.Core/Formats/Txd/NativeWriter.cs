using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Txd;

/// <summary>
/// Writes a texture native chunk for a DDS file: chunk and struct headers and the 88-byte Direct3D header in memory, each
/// mip level's u32 size in memory and its bytes a slice of the DDS file, then the extension chunk (the original's, or an
/// empty one for an added texture).
/// </summary>
internal static class NativeWriter
{
    // Defaults for an added texture (docs/FORMATS.md): linear filtering (mipmapped when the DDS has mips), wrap in U and V.
    private const byte FilterLinear = 0x02, FilterLinearMipLinear = 0x06, AddressWrapUv = 0x11;

    /// <summary>Appends the native for <paramref name="change"/> (replacing <paramref name="replaced"/>, or added when null); returns what <c>ls</c> shows of it.</summary>
    public static string Append(VirtualFileBuilder builder, TxdIndex original, TxdTexture? replaced, EntryChange change)
    {
        var input = change.Input!;
        var dds = DdsTexture.Read(input);
        var (platform, nativeVersion, structVersion) = replaced is null ? Template(original, change) : (replaced.Platform, replaced.Version, replaced.StructVersion);

        int prefix = 2 * RwChunk.HeaderSize + TxdTexture.HeaderSize;
        var bytes = new byte[prefix + 4 * dds.Levels.Count];
        var header = bytes.AsSpan(2 * RwChunk.HeaderSize, TxdTexture.HeaderSize);
        bool autoMipmap;
        if (replaced is not null)
        {
            replaced.Header.AsSpan(0, NativeHeader.MaskOffset + NativeHeader.FieldSize).CopyTo(header); // platform, filter, addressing, name, mask
            autoMipmap = (NativeHeader.RasterFormat(replaced.Header) & NativeHeader.RasterAutoMipmap) != 0;
        }
        else
        {
            header[4] = dds.Levels.Count > 1 ? FilterLinearMipLinear : FilterLinear;
            header[5] = AddressWrapUv;
            Encoding.ASCII.GetBytes(TxdBuilder.NewTextureName(change), header.Slice(NativeHeader.NameOffset, NativeHeader.FieldSize));
            autoMipmap = false;
        }
        NativeHeader.WritePixels(header, platform, dds, autoMipmap);

        long raster = dds.Levels.Sum(l => 4L + l.Size);
        long structSize = TxdTexture.HeaderSize + raster;
        long extensionLength = replaced?.ExtensionLength ?? RwChunk.HeaderSize;
        long nativeSize = RwChunk.HeaderSize + structSize + extensionLength;
        if (nativeSize > uint.MaxValue)
            throw new ArchiveFormatException(input.ToString(), 0, $"the texture native for it would be {nativeSize} bytes; a RenderWare chunk's u32 size stops at {uint.MaxValue}");
        RwChunk.Write(bytes, RwChunk.TextureNative, nativeSize, nativeVersion);
        RwChunk.Write(bytes.AsSpan(RwChunk.HeaderSize), RwChunk.Struct, structSize, structVersion);

        builder.AppendBytes(bytes.AsMemory(0, prefix));
        for (int k = 0; k < dds.Levels.Count; k++)
        {
            var (offset, size) = dds.Levels[k];
            BinaryPrimitives.WriteUInt32LittleEndian(bytes.AsSpan(prefix + 4 * k), (uint)size);
            builder.AppendBytes(bytes.AsMemory(prefix + 4 * k, 4));
            input.AppendTo(builder, offset, size);
        }
        if (replaced is not null)
            original.AppendOriginal(builder, replaced.ExtensionOffset, replaced.ExtensionLength);
        else
            builder.AppendBytes(EmptyExtension(nativeVersion));
        return NativeHeader.Describe(header);
    }

    /// <summary>An added texture takes its platform and version stamps from the dictionary's first texture, or from the device id of an empty one.</summary>
    private static (uint Platform, uint NativeVersion, uint StructVersion) Template(TxdIndex original, EntryChange change)
    {
        if (original.Textures.Count > 0)
            return (original.Textures[0].Platform, original.Textures[0].Version, original.Textures[0].StructVersion);
        int device = BinaryPrimitives.ReadUInt16LittleEndian(original.StructChunk.AsSpan(RwChunk.HeaderSize + 2));
        uint platform = device switch
        {
            1 => NativeHeader.D3D8, // rwDEVICE_D3D8
            2 => NativeHeader.D3D9, // rwDEVICE_D3D9
            _ => throw new ArchiveFormatException(original.Source.Name, RwChunk.HeaderSize * 2 + 2,
                $"cannot add '{change.Key.Name}' (from {change.Origin}) to an empty dictionary of device id {device}: which platform its textures are for is unknown (1 = Direct3D 8, 2 = Direct3D 9)"),
        };
        return (platform, original.Dictionary.Version, original.Dictionary.Version);
    }

    private static byte[] EmptyExtension(uint version)
    {
        var bytes = new byte[RwChunk.HeaderSize];
        RwChunk.Write(bytes, RwChunk.Extension, 0, version);
        return bytes;
    }
}
