using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using UtfColumn = ArchiveEmu.Core.Formats.Cpk.UtfColumn;
using UtfStorage = ArchiveEmu.Core.Formats.Cpk.UtfStorage;
using UtfType = ArchiveEmu.Core.Formats.Cpk.UtfType;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>
/// The @UTF writer's choices and limits, read back by the independent Python reader: how a zero or constant column is
/// stored once its values are known, Shift-JIS strings in a table of encoding 0, GUID values, nulls where values are
/// stored, and a row of 65,535 bytes against one of 65,536 (the u16 row width).
/// </summary>
public sealed class UtfWriterEdgeTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("utf-edges");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private UtfIndependentReader.Table ReadBack(UtfTable table) =>
        UtfIndependentReader.Read(_dir.Write($"t-{Guid.NewGuid():N}.utf", UtfTableWriter.Write(table)));

    [Test]
    public void Write_StorageFollowsTheValues_ZeroOnlyForAllZero_ConstantOnlyForAllEqual()
    {
        var columns = new[]
        {
            new UtfColumn("constZeros", UtfType.U32, UtfStorage.Constant, 0u),
            new UtfColumn("zeroSame", UtfType.U32, UtfStorage.Zero),
            new UtfColumn("constMixed", UtfType.U32, UtfStorage.Constant, 9u),
            new UtfColumn("zeroZeros", UtfType.U32, UtfStorage.Zero),
        };
        var rows = new List<object?[]> { new object?[] { 0u, 5u, 9u, 0u }, new object?[] { 0u, 5u, 9u, 0u }, new object?[] { 0u, 5u, 7u, 0u } };
        var theirs = ReadBack(new UtfTable("S", columns, rows, encoding: 1));
        Assert.That(theirs.Columns.Select(c => c.Storage), Is.EqualTo(new[] { "constant", "perrow", "perrow", "zero" }));
        Assert.That(theirs.Rows.Select(r => r["constMixed"].GetInt64()), Is.EqualTo(new long[] { 9, 9, 7 }));
        Assert.That(theirs.Rows.Select(r => r["zeroSame"].GetInt64()), Is.EqualTo(new long[] { 5, 5, 5 }));
    }

    [Test]
    public void Write_ATableOfEncodingZero_StoresItsStringsInShiftJis()
    {
        var table = new UtfTable("J", [new UtfColumn("s", UtfType.String, UtfStorage.PerRow)], [["日本"]], encoding: 0);
        var bytes = UtfTableWriter.Write(table);
        Assert.That(Contains(bytes, [0x93, 0xFA, 0x96, 0x7B]), Is.True, "日本 in Shift-JIS (code page 932)");
        Assert.That(Contains(bytes, System.Text.Encoding.UTF8.GetBytes("日本")), Is.False);
    }

    [Test]
    public void Write_AGuidColumn_Holds16BytesPerValue()
    {
        var guid = TestData.Random(1, 16);
        // The independent reader knows no GUID type (0xC), so the row is checked in the bytes: 16 bytes at the row's start.
        var bytes = UtfTableWriter.Write(new UtfTable("G", [new UtfColumn("g", UtfType.Guid, UtfStorage.PerRow)], [[guid]], encoding: 1));
        int rowsAt = 8 + System.Buffers.Binary.BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(10));
        Assert.That(bytes.AsSpan(rowsAt, 16).ToArray(), Is.EqualTo(guid));
        Assert.That(() => UtfTableWriter.Write(new UtfTable("G", [new UtfColumn("g", UtfType.Guid, UtfStorage.PerRow)], [[new byte[15]]])),
            Throws.ArgumentException.With.Message.Contains("@UTF column 'g' holds 16 bytes per value, not 15"));
    }

    [TestCase("string")]
    [TestCase("data")]
    public void Write_ANullWhereValuesAreStored_IsRefused(string kind)
    {
        var type = kind == "string" ? UtfType.String : UtfType.Data;
        var table = new UtfTable("N", [new UtfColumn("v", type, UtfStorage.PerRow)], [[null]]);
        Assert.That(() => UtfTableWriter.Write(table), Throws.ArgumentException.With.Message.Contains(
            "@UTF column 'v' has a null value but stores values; only a zero column holds nulls"));
        Assert.That(() => UtfTableWriter.Write(null!), Throws.ArgumentNullException);
    }

    [Test]
    public void Write_ARowOf65535Bytes_Fits_OneOf65536IsRefused()
    {
        UtfTable Wide(UtfType last)
        {
            var columns = Enumerable.Range(0, 8191).Select(i => new UtfColumn($"c{i}", UtfType.U64, UtfStorage.PerRow))
                .Concat([new UtfColumn("w", UtfType.U32, UtfStorage.PerRow), new UtfColumn("h", UtfType.U16, UtfStorage.PerRow), new UtfColumn("l", last, UtfStorage.PerRow)])
                .ToList();
            var row = columns.Select(c => c.Type switch { UtfType.U64 => (object)0ul, UtfType.U32 => 0u, UtfType.U16 => (object)(ushort)0, _ => (byte)0 }).ToArray();
            return new UtfTable("Wide", columns, [row], encoding: 1);
        }
        Assert.That(ReadBack(Wide(UtfType.U8)).Columns, Has.Length.EqualTo(8194), "8,191 × 8 + 4 + 2 + 1 = 65,535 bytes a row");
        Assert.That(() => UtfTableWriter.Write(Wide(UtfType.U16)), Throws.InstanceOf<OverflowException>()
            .With.Message.Contains("@UTF table 'Wide' does not fit the format's 16- and 32-bit fields"));
    }

    private static bool Contains(byte[] haystack, byte[] needle) => haystack.AsSpan().IndexOf(needle) >= 0;
}
