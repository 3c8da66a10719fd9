using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using Col = ArchiveEmu.TestSupport.Cri.UtfColumn;
using Type = ArchiveEmu.TestSupport.Cri.UtfType;

namespace ArchiveEmu.Fuzz;

/// <summary>Seeds of the CRI parts fuzzed on their own: CRILAYLA streams and @UTF tables, from the tests' independent writers.</summary>
internal static class FuzzSeedsOfParts
{
    public static IReadOnlyList<(string Name, byte[] Bytes)> Crilayla()
    {
        // Repetitive content, so the stream holds back-references of several lengths, not only literals.
        var repeating = Enumerable.Range(0, 900).Select(i => (byte)(i % 37 < 20 ? i % 7 : i)).ToArray();
        return
        [
            ("reference encoder, repeating", CrilaylaReferenceEncoder.Encode(repeating)),
            ("reference encoder, short matches", CrilaylaReferenceEncoder.Encode(repeating, maxMatch: 8)),
            ("test encoder, random", CrilaylaTestEncoder.Encode(TestData.Random(31, 400))),
        ];
    }

    public static IReadOnlyList<(string Name, byte[] Bytes)> Utf() =>
    [
        ("every type, per row and constant", UtfTestWriter.Write("Table", 2,
        [
            new Col("u8", Type.U8, UtfStorage.PerRow, [(byte)1, (byte)2]), new Col("s16", Type.S16, UtfStorage.PerRow, [(short)-3, (short)4]),
            new Col("u32", Type.U32, UtfStorage.PerRow, [5u, 6u]), new Col("s64", Type.S64, UtfStorage.Constant, [-7L]),
            new Col("f", Type.Float, UtfStorage.PerRow, [1.5f, 2.5f]), new Col("d", Type.Double, UtfStorage.Constant, [3.25]),
            new Col("name", Type.String, UtfStorage.PerRow, ["a.bin", null]), new Col("data", Type.Data, UtfStorage.PerRow, [new byte[] { 1, 2, 3 }, null]),
            Col.Zero("z", Type.U16),
        ])),
        ("masked, version 0", UtfTestWriter.Write("Masked", 1, [new Col("id", Type.U16, UtfStorage.PerRow, [(ushort)9]),
            new Col("s", Type.String, UtfStorage.Constant, ["x"])], masked: true, version: 0)),
    ];
}
