using System.Buffers.Binary;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// A game folder for the API tests: an AFS archive of 16 entries, a ZIP, and a container file holding a PAK
/// (V2) at an odd offset; one mod folder replacing AFS entry 2. Deleted on dispose.
/// </summary>
internal sealed class EmulatorTestGame : IDisposable
{
    private readonly TempDirectory _dir = new("api");

    public EmulatorTestGame()
    {
        Originals = Enumerable.Range(0, 16).Select(i => TestData.Random(500 + i, 3000 + 17 * i)).ToArray();
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write(Originals.Select(b => (byte[]?)b).ToArray()));
        if (OperatingSystem.IsWindows()) // no python3 there: the same entries from .NET's zip writer
            DotNetArchiveWriters.WriteZip(_dir["game/data/ui.zip"],
                ("ui/a.txt", DotNetArchiveWriters.Repeat("hello "u8.ToArray(), 300), true),
                ("ui/b.bin", DotNetArchiveWriters.Repeat(Enumerable.Range(0, 256).Select(i => (byte)i).ToArray(), 8), false));
        else
            ExternalTool.Python("""
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('ui/a.txt', b'hello ' * 300, compress_type=zipfile.ZIP_DEFLATED)
    z.writestr('ui/b.bin', bytes(range(256)) * 8)
""", _dir["game/data/ui.zip"]);
        PakM0 = TestData.Random(600, 900);
        Pak = PakTestWriter.Write(PakTestLayout.All[2], [("m0.bin", PakM0), ("m1.bin", TestData.Random(601, 1100))]);
        _dir.Write("game/data/bundle.bin", [.. TestData.Random(602, PakOffset), .. Pak, .. TestData.Random(603, 2000)]);
        ModTwo = _dir.Write("mods/hd/data/tex.afs/2.dds", TestData.Random(700, 5000));
    }

    public const int PakOffset = 4099;
    public byte[][] Originals { get; }
    public byte[] Pak { get; }
    public byte[] PakM0 { get; }

    /// <summary>The mod folder's replacement for AFS entry 2.</summary>
    public string ModTwo { get; }
    public string Game => _dir["game"];
    public string Mod => _dir["mods/hd"];
    public string this[string relative] => _dir[relative];
    public string Write(string relative, byte[] bytes) => _dir.Write(relative, bytes);

    public static byte[] ReadAll(VirtualFile file)
    {
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>Entry <paramref name="index"/> of AFS bytes, read straight from the table (offset, size at 8 + 8i).</summary>
    public static byte[] AfsEntry(byte[] afs, int index)
    {
        int offset = (int)BinaryPrimitives.ReadUInt32LittleEndian(afs.AsSpan(8 + 8 * index));
        int size = (int)BinaryPrimitives.ReadUInt32LittleEndian(afs.AsSpan(12 + 8 * index));
        return afs.AsSpan(offset, size).ToArray();
    }

    public static int AfsCount(byte[] afs) => (int)BinaryPrimitives.ReadUInt32LittleEndian(afs.AsSpan(4));

    public void Dispose() => _dir.Dispose();
}
