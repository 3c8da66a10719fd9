using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using Test = ArchiveEmu.TestSupport.Cri;
using UtfColumn = ArchiveEmu.Core.Formats.Cpk.UtfColumn;
using UtfStorage = ArchiveEmu.Core.Formats.Cpk.UtfStorage;
using UtfType = ArchiveEmu.Core.Formats.Cpk.UtfType;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>The @UTF reader on hand-written and independently written tables; the writer read back by both readers.</summary>
public sealed class UtfTableTests
{
    private const string File = "/games/x/t.utf";

    [Test]
    public void Read_AHandWrittenTable_ReadsEveryStorageKindAndType()
    {
        var table = UtfTableReader.Read(UtfHandTables.SixColumns(), File, 0);

        Assert.That(table.Name, Is.EqualTo("T"));
        Assert.That(table.Masked, Is.False);
        Assert.That(table.Encoding, Is.EqualTo(1));
        Assert.That(table.Columns.Select(c => (c.Name, c.Type, c.Storage)), Is.EqualTo(new[]
        {
            ("a", UtfType.U8, UtfStorage.PerRow), ("b", UtfType.S16, UtfStorage.Constant), ("c", UtfType.U32, UtfStorage.Zero),
            ("s", UtfType.String, UtfStorage.PerRow), ("d", UtfType.Data, UtfStorage.PerRow), ("f", UtfType.Float, UtfStorage.PerRow),
        }));
        Assert.That(table.Rows[0], Is.EqualTo(new object?[] { (byte)7, (short)-2, 0u, "x", new byte[] { 1, 2, 3 }, 1.5f }));
        Assert.That(table.Rows[1], Is.EqualTo(new object?[] { (byte)255, (short)-2, 0u, "y", Array.Empty<byte>(), -2f }));
    }

    [Test]
    public void Read_AMaskedTable_UnmasksItWithThePublishedKeystream()
    {
        var masked = UtfHandTables.Masked(UtfHandTables.SixColumns());
        Assert.That(masked.AsSpan(0, 4).SequenceEqual("@UTF"u8), Is.False);

        var table = UtfTableReader.Read(masked, File, 0);

        Assert.That(table.Masked, Is.True);
        Assert.That(table.Rows[1][3], Is.EqualTo("y"));
        Assert.That(table.Rows[0][4], Is.EqualTo(new byte[] { 1, 2, 3 }));
    }

    [Test]
    public void Mask_MatchesTheIndependentTestWritersMask()
    {
        var ours = new byte[64];
        UtfMask.Apply(ours);
        var theirs = new byte[64];
        UtfTestWriter.Mask(theirs);
        Assert.That(ours, Is.EqualTo(theirs));
        Assert.That(ours[0], Is.EqualTo(0x5F));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void Write_ThenRead_GivesTheSameTableAndKeepsMasking(bool masked)
    {
        var bytes = UtfHandTables.SixColumns();
        var table = UtfTableReader.Read(masked ? UtfHandTables.Masked(bytes) : bytes, File, 0);

        var written = UtfTableWriter.Write(table);
        var again = UtfTableReader.Read(written, File, 0);

        Assert.That(written.AsSpan(0, 4).SequenceEqual("@UTF"u8), Is.EqualTo(!masked));
        AssertSame(again, table);
    }

    [Test]
    public void Write_ATableOfEveryNumericType_IsReadBackByTheIndependentReader()
    {
        using var dir = new TempDirectory("utf");
        var columns = new[]
        {
            new UtfColumn("u8", UtfType.U8, UtfStorage.PerRow), new UtfColumn("s8", UtfType.S8, UtfStorage.PerRow),
            new UtfColumn("u16", UtfType.U16, UtfStorage.PerRow), new UtfColumn("s16", UtfType.S16, UtfStorage.Constant, (short)-300),
            new UtfColumn("u32", UtfType.U32, UtfStorage.PerRow), new UtfColumn("s32", UtfType.S32, UtfStorage.PerRow),
            new UtfColumn("u64", UtfType.U64, UtfStorage.PerRow), new UtfColumn("s64", UtfType.S64, UtfStorage.PerRow),
            new UtfColumn("f", UtfType.Float, UtfStorage.PerRow), new UtfColumn("d", UtfType.Double, UtfStorage.PerRow),
            new UtfColumn("z", UtfType.U32, UtfStorage.Zero), new UtfColumn("str", UtfType.String, UtfStorage.PerRow),
            new UtfColumn("data", UtfType.Data, UtfStorage.PerRow),
        };
        var rows = new List<object?[]>
        {
            new object?[] { (byte)1, (sbyte)-1, (ushort)65535, (short)-300, 4000000000u, -5, ulong.MaxValue, long.MinValue, 0.25f, 1e100, 0u, "héllo", new byte[] { 9 } },
            new object?[] { (byte)2, (sbyte)100, (ushort)0, (short)-300, 0u, int.MaxValue, 1ul, 7L, -1f, -0.5, 0u, "", Array.Empty<byte>() },
        };
        var table = new UtfTable("Numbers", columns, rows, masked: true, encoding: 1);
        var path = dir.Write("t.utf", UtfTableWriter.Write(table));

        var theirs = UtfIndependentReader.Read(path);

        Assert.That(theirs.Name, Is.EqualTo("Numbers"));
        Assert.That(theirs.Masked, Is.True);
        Assert.That(theirs.Columns.Select(c => c.Storage), Is.EqualTo(new[]
            { "perrow", "perrow", "perrow", "constant", "perrow", "perrow", "perrow", "perrow", "perrow", "perrow", "zero", "perrow", "perrow" }));
        Assert.That(theirs.Rows[0]["u32"].GetInt64(), Is.EqualTo(4000000000));
        Assert.That(theirs.Rows[0]["s64"].GetInt64(), Is.EqualTo(long.MinValue));
        Assert.That(theirs.Rows[0]["u64"].GetUInt64(), Is.EqualTo(ulong.MaxValue));
        Assert.That(theirs.Rows[1]["s16"].GetInt64(), Is.EqualTo(-300));
        Assert.That(theirs.Rows[0]["d"].GetDouble(), Is.EqualTo(1e100));
        Assert.That(theirs.Rows[0]["str"].GetString(), Is.EqualTo("héllo"));
        AssertSame(UtfTableReader.Read(System.IO.File.ReadAllBytes(path), path, 0), table);
    }

    [Test]
    public void Read_ATableFromTheIndependentWriter_ReadsItsValues()
    {
        var bytes = UtfTestWriter.Write("Ind", 3,
        [
            new Test.UtfColumn("id", Test.UtfType.U16, Test.UtfStorage.PerRow, [(ushort)1, (ushort)2, (ushort)3]),
            Test.UtfColumn.Constant("k", Test.UtfType.U64, 77ul),
            Test.UtfColumn.Zero("none", Test.UtfType.String),
            new Test.UtfColumn("name", Test.UtfType.String, Test.UtfStorage.PerRow, ["a", "bb", null]),
        ], masked: true);

        var table = UtfTableReader.Read(bytes, File, 0);

        Assert.That(table.Masked, Is.True);
        Assert.That(table.Rows.Select(r => r[0]), Is.EqualTo(new object[] { (ushort)1, (ushort)2, (ushort)3 }));
        Assert.That(table.Rows.Select(r => r[1]), Is.All.EqualTo(77ul));
        Assert.That(table.Rows.Select(r => r[2]), Is.All.Null);
        Assert.That(table.Rows.Select(r => r[3]), Is.EqualTo(new object[] { "a", "bb", "<NULL>" }));
    }

    [Test]
    public void Write_AZeroColumnGivenValues_IsStoredPerRow_AndAConstantColumnGivenOneNewValueStaysConstant()
    {
        var table = UtfTableReader.Read(UtfHandTables.SixColumns(), File, 0);
        table.Rows[0][2] = 5u; // c: zero
        table.Rows[0][1] = (short)9; // b: constant
        table.Rows[1][1] = (short)9;

        var again = UtfTableReader.Read(UtfTableWriter.Write(table), File, 0);

        Assert.That(again.Columns[2].Storage, Is.EqualTo(UtfStorage.PerRow));
        Assert.That(again.Rows.Select(r => r[2]), Is.EqualTo(new object[] { 5u, 0u }));
        Assert.That(again.Columns[1].Storage, Is.EqualTo(UtfStorage.Constant));
        Assert.That(again.Columns[1].Constant, Is.EqualTo((short)9));
    }

    /// <summary>Same name, masking, columns (name, type, storage) and values.</summary>
    internal static void AssertSame(UtfTable actual, UtfTable expected)
    {
        Assert.That(actual.Name, Is.EqualTo(expected.Name));
        Assert.That(actual.Masked, Is.EqualTo(expected.Masked));
        Assert.That(actual.Encoding, Is.EqualTo(expected.Encoding));
        Assert.That(actual.Columns.Select(c => (c.Name, c.Type, c.Storage)), Is.EqualTo(expected.Columns.Select(c => (c.Name, c.Type, c.Storage))));
        Assert.That(actual.Rows.Count, Is.EqualTo(expected.Rows.Count));
        for (int r = 0; r < expected.Rows.Count; r++)
            Assert.That(actual.Rows[r], Is.EqualTo(expected.Rows[r]), $"row {r}");
    }
}
