using System.Buffers.Binary;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// Writes the build benchmark's data: an AFS archive of <c>entries</c> × <c>entrySize</c> bytes (with a
/// name table) and loose files for every tenth entry, as a mod would ship them. Written here from the
/// format facts, independently of ArchiveEmu's AFS code.
/// </summary>
internal static class LargeAfsFixture
{
    private const int Align = 0x800;

    public static void Write(string folder, int entries, int entrySize, int injectEvery, out string archive, out string[] looseFiles)
    {
        Directory.CreateDirectory(folder);
        archive = Path.Combine(folder, "large.afs");
        long headerEnd = RoundUp(8 + 8L * entries + 8, Align);
        long dataEnd = headerEnd + (long)entries * RoundUp(entrySize, Align);

        var header = new byte[headerEnd];
        "AFS\0"u8.CopyTo(header);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(4), (uint)entries);
        for (int i = 0; i < entries; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8 + 8 * i), (uint)(headerEnd + (long)i * RoundUp(entrySize, Align)));
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(12 + 8 * i), (uint)entrySize);
        }
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8 + 8 * entries), (uint)dataEnd);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(12 + 8 * entries), (uint)(48 * entries));

        var random = new Random(65536);
        var data = new byte[RoundUp(entrySize, Align)];
        using (var stream = new FileStream(archive, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
        {
            stream.Write(header);
            for (int i = 0; i < entries; i++)
            {
                random.NextBytes(data.AsSpan(0, entrySize));
                stream.Write(data);
            }
            var names = new byte[RoundUp(48L * entries, Align)];
            for (int i = 0; i < entries; i++)
            {
                System.Text.Encoding.ASCII.GetBytes($"file{i:D5}.dds").CopyTo(names.AsSpan(48 * i));
                BinaryPrimitives.WriteUInt32LittleEndian(names.AsSpan(48 * i + 44), (uint)entrySize);
            }
            stream.Write(names);
        }

        var mod = Path.Combine(folder, "mod");
        Directory.CreateDirectory(mod);
        var loose = new List<string>();
        for (int i = 0; i < entries; i += injectEvery)
        {
            var path = Path.Combine(mod, $"{i}.dds");
            var bytes = new byte[entrySize + random.Next(-1024, 1024)]; // injected files differ in size
            random.NextBytes(bytes);
            File.WriteAllBytes(path, bytes);
            loose.Add(path);
        }
        looseFiles = loose.ToArray();
    }

    private static long RoundUp(long value, long align) => (value + align - 1) / align * align;
}
