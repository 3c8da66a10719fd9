using System.Buffers.Binary;

namespace ArchiveEmu.Cli.Bench;

/// <summary>
/// Texture-like test data: a DDS file (real 128-byte header, DXT1 or DXT5) whose BC1/BC3 blocks encode a
/// smooth image plus noise — endpoints follow the image, indices follow its gradient with noisy pixels —
/// so it compresses like block-compressed game textures, not like zeros or random bytes.
/// </summary>
internal static class DdsTexture
{
    public const int HeaderBytes = 128;

    /// <summary>A DDS file of <paramref name="textureBytes"/> block bytes (a power of two); odd seeds give DXT5, even DXT1.</summary>
    public static byte[] Create(int textureBytes, ulong seed)
    {
        bool bc3 = (seed & 1) == 1;
        int blockBytes = bc3 ? 16 : 8;
        int blocks = textureBytes / blockBytes;
        int widthBlocks = 1 << (int)Math.Ceiling(Math.Log2(blocks) / 2);
        int heightBlocks = blocks / widthBlocks;
        var file = new byte[HeaderBytes + textureBytes];
        WriteHeader(file, widthBlocks * 4, heightBlocks * 4, textureBytes, bc3 ? "DXT5"u8 : "DXT1"u8);
        new Image(seed, widthBlocks, heightBlocks).Encode(file.AsSpan(HeaderBytes), bc3);
        return file;
    }

    private static void WriteHeader(Span<byte> file, int width, int height, int linearSize, ReadOnlySpan<byte> fourCc)
    {
        "DDS "u8.CopyTo(file);
        var h = file[4..HeaderBytes];
        BinaryPrimitives.WriteInt32LittleEndian(h, 124);                    // dwSize
        BinaryPrimitives.WriteInt32LittleEndian(h[4..], 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000); // CAPS|HEIGHT|WIDTH|PIXELFORMAT|LINEARSIZE
        BinaryPrimitives.WriteInt32LittleEndian(h[8..], height);
        BinaryPrimitives.WriteInt32LittleEndian(h[12..], width);
        BinaryPrimitives.WriteInt32LittleEndian(h[16..], linearSize);
        BinaryPrimitives.WriteInt32LittleEndian(h[24..], 1);                // one mip level
        BinaryPrimitives.WriteInt32LittleEndian(h[72..], 32);               // pixel format size
        BinaryPrimitives.WriteInt32LittleEndian(h[76..], 0x4);              // DDPF_FOURCC
        fourCc.CopyTo(h[80..]);
        BinaryPrimitives.WriteInt32LittleEndian(h[104..], 0x1000);          // DDSCAPS_TEXTURE
    }

    /// <summary>The smooth image: products of low-frequency sines (tabulated per row and column) between two tint colours.</summary>
    private sealed class Image
    {
        private readonly float[] _sinX, _cosX, _sinY, _cosY;
        private readonly (float R, float G, float B) _tintA, _tintB;
        private readonly int _width, _height;
        private ulong _rng;

        public Image(ulong seed, int widthBlocks, int heightBlocks)
        {
            _rng = seed * 0x9E3779B97F4A7C15UL + 0x632BE59BD9B4E019UL;
            (_width, _height) = (widthBlocks, heightBlocks);
            double fx = (1 + Next() % 4) * 2 * Math.PI / widthBlocks, fy = (1 + Next() % 4) * 2 * Math.PI / heightBlocks;
            double px = Next() % 1000 / 159.0, py = Next() % 1000 / 159.0;
            _sinX = Table(widthBlocks, i => Math.Sin(i * fx + px));
            _cosX = Table(widthBlocks, i => Math.Cos(i * fx * 3 + px));
            _sinY = Table(heightBlocks, i => Math.Sin(i * fy + py));
            _cosY = Table(heightBlocks, i => Math.Cos(i * fy * 3 + py));
            _tintA = (Next() % 256 / 255f, Next() % 256 / 255f, Next() % 256 / 255f);
            _tintB = (Next() % 256 / 255f, Next() % 256 / 255f, Next() % 256 / 255f);
        }

        private static float[] Table(int n, Func<int, double> f)
        {
            var t = new float[n + 1];
            for (int i = 0; i <= n; i++)
                t[i] = (float)f(i);
            return t;
        }

        private ulong Next()
        {
            _rng ^= _rng << 13;
            _rng ^= _rng >> 7;
            _rng ^= _rng << 17;
            return _rng;
        }

        private float Value(int x, int y) => 0.5f + 0.3f * _sinX[x] * _sinY[y] + 0.15f * _cosX[x] * _cosY[y];

        private float Alpha(int x, int y) => 0.5f + 0.45f * _cosX[x] * _sinY[y];

        public void Encode(Span<byte> output, bool bc3)
        {
            int at = 0;
            for (int by = 0; by < _height; by++)
            {
                for (int bx = 0; bx < _width; bx++)
                {
                    if (bc3)
                    {
                        WriteAlphaBlock(output.Slice(at, 8), bx, by);
                        at += 8;
                    }
                    WriteColorBlock(output.Slice(at, 8), bx, by);
                    at += 8;
                }
            }
        }

        private void WriteColorBlock(Span<byte> block, int bx, int by)
        {
            float v = Value(bx, by);
            float gx = Value(bx + 1, by) - v, gy = Value(bx, by + 1) - v;
            float spread = MathF.Abs(gx) + MathF.Abs(gy) + 0.02f + (Next() & 0xFF) / 255f * 0.05f; // local contrast plus noise
            ushort hi = Rgb565(Math.Clamp(v + spread, 0, 1)), lo = Rgb565(Math.Clamp(v - spread, 0, 1));
            if (hi <= lo)
                (hi, lo) = (lo == ushort.MaxValue ? lo : (ushort)(lo + 1), hi); // keep colour0 > colour1: four-colour mode
            BinaryPrimitives.WriteUInt16LittleEndian(block, hi);
            BinaryPrimitives.WriteUInt16LittleEndian(block[2..], lo);
            BinaryPrimitives.WriteUInt32LittleEndian(block[4..], (uint)Indices(gx, gy, 2));
        }

        private void WriteAlphaBlock(Span<byte> block, int bx, int by)
        {
            float a = Alpha(bx, by);
            float gx = Alpha(bx + 1, by) - a, gy = Alpha(bx, by + 1) - a;
            float spread = MathF.Abs(gx) + MathF.Abs(gy) + 0.01f;
            block[0] = (byte)(Math.Clamp(a + spread, 0, 1) * 255);
            block[1] = (byte)(Math.Clamp(a - spread, 0, 1) * 255);
            ulong bits = Indices(gx, gy, 3);
            for (int i = 0; i < 6; i++)
                block[2 + i] = (byte)(bits >> (8 * i));
        }

        /// <summary>16 indices of <paramref name="bits"/> bits: each pixel's position along the gradient, one in four nudged by noise.</summary>
        private ulong Indices(float gx, float gy, int bits)
        {
            int levels = (1 << bits) - 1;
            float norm = MathF.Abs(gx) + MathF.Abs(gy) + 1e-6f;
            ulong noise = Next();
            ulong result = 0;
            for (int p = 0; p < 16; p++)
            {
                float t = ((p & 3) - 1.5f) * gx / norm + ((p >> 2) - 1.5f) * gy / norm; // about -1.5..1.5
                int level = (int)MathF.Round((t / 3 + 0.5f) * levels);
                if (((noise >> (p * 2)) & 3) == 0)
                    level += (int)((noise >> (32 + p)) & 1) * 2 - 1;
                result |= (ulong)Math.Clamp(level, 0, levels) << (p * bits);
            }
            return result;
        }

        private ushort Rgb565(float t)
        {
            float r = _tintA.R + (_tintB.R - _tintA.R) * t, g = _tintA.G + (_tintB.G - _tintA.G) * t, b = _tintA.B + (_tintB.B - _tintA.B) * t;
            return (ushort)(((int)(r * 31) << 11) | ((int)(g * 63) << 5) | (int)(b * 31));
        }
    }
}
