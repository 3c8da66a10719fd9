using System.Formats.Tar;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>Valid originals to mutate, per format: the fixtures where there are some, the test writers for the rest.</summary>
internal static class FuzzSeeds
{
    public static readonly string[] Formats = ["acb", "afs", "awb", "cpk", "img", "pak", "spd", "spr", "tar", "txd", "zip"];

    public static IReadOnlyList<(string Name, byte[] Bytes)> For(string format) => format switch
    {
        "acb" =>
        [
            ("writer, streamed AWB, nested header copy and hash", AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write([Small(20), Small(21)])))),
            ("writer, streamed AWB, raw header copy and hash, 4 bytes past the table", AcbTestWriter.Write(new(
                StreamAwb: AwbTestWriter.Write([Small(22), null, Small(23)]), HeaderAsTable: false, HashAsTable: false, CopyPastTable: 4))),
            ("writer, in-memory AWB", AcbTestWriter.Write(new(Name: "se", MemoryAwb: AwbTestWriter.Write([Small(24), Small(25), Small(26)])))),
            ("writer, in-memory and streamed AWB, constant StreamAwbTocWork", AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write([Small(27), Small(28)]),
                StreamAwb: AwbTestWriter.Write([Small(29)]), ConstantTocWork: true))),
        ],
        "afs" =>
        [
            ("fixtures/textures.afs", Fixture("game/data/textures.afs")),
            ("fixtures/voice.afs", Fixture("game/data/voice.afs")),
            ("writer, empty slot", AfsTestWriter.Write([Small(1), null, Small(2)])),
        ],
        "awb" =>
        [
            ("writer, width 4", AwbTestWriter.Write([Small(3), Small(4), null, Small(5)])),
            ("writer, width 2, ids", AwbTestWriter.Write([Small(6), Small(7)], new AwbTestWriter.Options(PositionWidth: 2, Ids: [5, 9]))),
        ],
        "cpk" =>
        [
            ("writer, named", CpkTestWriter.WriteNamed([new("d", "a.bin", Small(15)), new("", "b.bin", Small(16)), new("d/e", "c.bin", Small(17))])),
            ("writer, named, masked, ETOC, align 0x20", CpkTestWriter.WriteNamed([new("d", "a.bin", Small(18)), new("d", "b.bin", Small(19))],
                new CpkTestWriter.Options(0x20, Masked: true, WithEtoc: true))),
        ],
        "img" => [("writer", ImgTestWriter.Write([("a.dff", Small(8)), ("b.txd", Small(9)), ("c.col", Small(10))]))],
        "pak" => PakTestLayout.All.Select(layout => ($"writer {layout}", PakTestWriter.Write(layout, [("a.bin", Small(11)), ("dir/b.bin", Small(12))]))).ToArray(),
        "spd" =>
        [
            ("writer, 3 textures, 4 sprites", SpdTestWriter.Write(
                [new(0, DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, seed: 20), "a"), new(4, DdsTestWriter.Write(TextureFormat.Dxt5, 8, 4, seed: 21)),
                    new(2, DdsTestWriter.Write(TextureFormat.A8R8G8B8, 4, 4, seed: 22))],
                [new(0, 0, 0, 0, 4, 4), new(1, 4, 0, 0, 8, 4), new(7, 0, 4, 4, 4, 4), new(3, 2, 0, 0, 4, 4)])),
            ("writer, no sprites", SpdTestWriter.Write([new(1, DdsTestWriter.Write(TextureFormat.Dxt3, 4, 4, seed: 23))], [])),
        ],
        "spr" =>
        [
            ("writer, 2 TMX, 3 sprites", SprTestWriter.Write([TmxTestWriter.Write(4, 4, seed: 24), TmxTestWriter.Write(8, 2, seed: 25, comment: "b")],
                [new(0, 0, 0, 4, 4, "a"), new(1, 0, 0, 8, 2), new(0, 1, 1, 2, 2)])),
        ],
        "tar" => [("System.Formats.Tar pax", Tar(TarEntryFormat.Pax)), ("System.Formats.Tar gnu", Tar(TarEntryFormat.Gnu))],
        "txd" =>
        [
            ("writer, D3D9", TxdTestWriter.Write([TxdTestWriter.Texture.Create(9, "body", "bodya", TextureFormat.Dxt1, 16, 8, 3, seed: 20),
                TxdTestWriter.Texture.Create(9, "glass", "", TextureFormat.A8R8G8B8, 4, 4, 2, seed: 21)])),
            ("writer, D3D8", TxdTestWriter.Write([TxdTestWriter.Texture.Create(8, "wheel", "", TextureFormat.Dxt5, 8, 8, 1, seed: 22)], deviceId: 1, libraryId: 0x0C02FFFF)),
        ],
        "zip" => [("fixtures/ui.zip", Fixture("game/data/ui.zip"))],
        _ => throw new ArgumentOutOfRangeException(nameof(format), format, "no seeds"),
    };

    private static byte[] Fixture(string relative) => File.ReadAllBytes(RepositoryFiles.Fixture(relative));

    private static byte[] Small(int seed) => TestData.Random(seed, 200 + seed * 97);

    // Written by .NET's own tar writer: independent of ArchiveEmu's reader.
    private static byte[] Tar(TarEntryFormat format)
    {
        using var stream = new MemoryStream();
        using (var writer = new TarWriter(stream, format, leaveOpen: true))
        {
            foreach (var (name, seed) in new[] { ("a.bin", 13), ("some/longer/folder/name/for/the/entry/b.bin", 14) })
            {
                TarEntry entry = format == TarEntryFormat.Pax ? new PaxTarEntry(TarEntryType.RegularFile, name) : new GnuTarEntry(TarEntryType.RegularFile, name);
                entry.DataStream = new MemoryStream(Small(seed));
                entry.ModificationTime = new DateTimeOffset(2001, 9, 9, 1, 46, 40, TimeSpan.Zero); // not now: a case must be the same mutant in every run
                writer.WriteEntry(entry);
            }
        }
        return stream.ToArray();
    }
}
