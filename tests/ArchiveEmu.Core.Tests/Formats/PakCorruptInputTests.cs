using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Pak;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Hostile PAK records give one ArchiveFormatException naming the file, never a crash, a wrong index or a huge allocation.</summary>
public sealed class PakCorruptInputTests
{
    private static readonly int[] Sizes = [300, 0, 500, 700];

    /// <summary>Each corruption gets the layout, fresh good bytes and the record starts; null = does not apply to that layout.</summary>
    private static readonly (string Name, Func<PakTestLayout, byte[], long[], byte[]?> Corrupt, string Problem)[] Cases =
    [
        ("truncated in the last record", (l, b, _) => b[..^((l.Terminator ? 256 : 0) + 100)], "past the end"),
        ("truncated in a header", (l, b, s) => b[..(int)(s[2] + l.HeaderLength / 2)], "past the end"),
        ("negative size", (l, b, s) => SetSize(l, b, s[0], -5), "negative size"),
        ("size past EOF", (l, b, s) => SetSize(l, b, s[0], 0x7FFF_0000), "past the end"),
        ("later size past EOF", (l, b, s) => SetSize(l, b, s[3], 1700), "past the end"),
        ("huge count", (l, b, _) => l.HasCount ? Set(b, 0, PakTestWriter.Int32(l, 0x7FFF_FFFF)) : null, "count"),
        ("negative count", (l, b, _) => l.HasCount ? Set(b, 0, PakTestWriter.Int32(l, -1)) : null, "count"),
        ("count one too many", (l, b, _) => l.HasCount ? Set(b, 0, PakTestWriter.Int32(l, Sizes.Length + 1)) : null, "past the end"),
        ("control byte in a name", (_, b, s) => Set(b, s[1], [0x01]), "name"),
        ("bytes after the NUL in a name", (_, b, s) => Set(b, s[2] + 12, [(byte)'X']), "name"),
        ("no name at all", (l, b, _) => Set(b, l.HasCount ? 4 : 0, [0x01, 0x02]), ""), // any problem will do: the file is barely a PAK
    ];

    public static IEnumerable<TestCaseData> CorruptFiles() =>
        from layout in PakTestLayout.All
        from c in Cases
        where Corrupted(layout, c.Corrupt) is not null
        select new TestCaseData(layout, c.Name).SetArgDisplayNames(layout.ToString(), c.Name);

    [TestCaseSource(nameof(CorruptFiles))]
    public void ReadIndex_CorruptRecords_ThrowsArchiveFormatExceptionNamingTheFile(PakTestLayout layout, string name)
    {
        var (_, corrupt, problem) = Cases.Single(c => c.Name == name);
        var bad = Corrupted(layout, corrupt)!;
        using var dir = new TempDirectory("pak-bad");
        var path = dir.Write("bad.pak", bad);
        Assert.That(PakFormat.Instance.Detect(bad, bad.Length), Is.False, "a corrupt file is not detected as PAK");
        Assert.That(() => PakFormat.Instance.ReadIndex(path),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("bad.pak").And.Message.Contains(problem));
    }

    [TestCaseSource(typeof(PakTests), nameof(PakTests.Layouts))]
    public void DetectAndReadIndex_RandomlyDamagedFiles_NeverThrowAnythingElse(PakTestLayout layout)
    {
        var good = PakTestWriter.Write(layout, Entries());
        var random = new Random(1 + PakTestLayout.All.ToList().IndexOf(layout)); // seeded: a failure repeats
        using var dir = new TempDirectory("pak-fuzz");
        for (int round = 0; round < 150; round++)
        {
            var bad = good.ToArray();
            for (int k = random.Next(1, 4); k > 0; k--)
                bad[random.Next(Math.Min(bad.Length, 1200))] = (byte)random.Next(256);
            if (round % 5 == 0)
                bad = bad[..random.Next(bad.Length)];
            bool detected = PakFormat.Instance.Detect(bad, bad.Length);
            var path = dir.Write($"f{round}.pak", bad);
            try
            {
                var index = PakFormat.Instance.ReadIndex(path);
                Assert.That(index.Entries.All(e => e.Offset >= 0 && e.Size >= 0 && e.Offset + e.Size <= bad.Length), Is.True, $"round {round}");
            }
            catch (ArchiveFormatException e)
            {
                // The whole file fits in the detection head, so detection saw every record the reader rejected.
                Assert.That(detected, Is.False, $"round {round}: detected as PAK but unreadable: {e.Message}");
            }
        }
    }

    private static byte[]? Corrupted(PakTestLayout layout, Func<PakTestLayout, byte[], long[], byte[]?> corrupt) =>
        corrupt(layout, PakTestWriter.Write(layout, Entries()), PakTestWriter.RecordStarts(layout, Sizes));

    private static List<(string, byte[])> Entries() =>
        Sizes.Select((size, i) => ($"e{i:D3}.bin", TestData.Random(i + 1, size))).ToList();

    private static byte[] SetSize(PakTestLayout layout, byte[] bytes, long recordStart, int size) =>
        Set(bytes, recordStart + layout.NameLength, PakTestWriter.Int32(layout, size));

    private static byte[] Set(byte[] bytes, long offset, byte[] value)
    {
        value.CopyTo(bytes, offset);
        return bytes;
    }
}
