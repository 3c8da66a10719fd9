using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>Hostile @UTF tables: each is one ArchiveFormatException naming the file and the offset of the bad field.</summary>
public sealed class UtfCorruptInputTests
{
    private const string File = "/games/x/bad.cpk";
    private const long At = 0x810; // where the table would sit in its file

    private static ArchiveFormatException ReadFails(byte[] bytes)
    {
        var e = Assert.Throws<ArchiveFormatException>(() => UtfTableReader.Read(bytes, File, At))!;
        Assert.That(e.Message, Does.Contain(File));
        return e;
    }

    [Test]
    public void ASizePastTheEnd_IsRefusedAtTheSizeField()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, 4, 0x1000);
        var e = ReadFails(t);
        Assert.That(e.Offset, Is.EqualTo(At + 4));
        Assert.That(e.Problem, Does.Contain("size"));
    }

    [Test]
    public void AStringOffsetPastThePool_IsRefusedAtTheRowField()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, UtfHandTables.RowsAt + 1, 500); // row 0, column s
        var e = ReadFails(t);
        Assert.That(e.Offset, Is.EqualTo(At + UtfHandTables.RowsAt + 1));
        Assert.That(e.Problem, Does.Contain("string pool"));
    }

    [Test]
    public void ADataRangePastThePool_IsRefused()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, UtfHandTables.RowsAt + 5 + 4, 0xFFFFFFFF); // row 0, column d size
        var e = ReadFails(t);
        Assert.That(e.Offset, Is.EqualTo(At + UtfHandTables.RowsAt + 5));
        Assert.That(e.Problem, Does.Contain("data pool"));
    }

    [Test]
    public void RowsOverlappingTheStringPool_AreRefused()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, 0x1C, 3); // three rows of 17 bytes run into the strings
        var e = ReadFails(t);
        Assert.That(e.Problem, Does.Contain("overlap"));
    }

    [Test]
    public void ARowCountThatOverflows_IsRefusedWithoutAllocating()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, 0x1C, 0xFFFFFFFF);
        UtfHandTables.U16(t, 0x1A, 0xFFFF);
        var e = ReadFails(t);
        Assert.That(e.Offset, Is.EqualTo(At + 0xA));
    }

    [Test]
    public void PoolsOutOfOrder_AreRefused()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U32(t, 0x10, UtfHandTables.StringsAt - 8 - 1); // data pool starts before the string pool
        var e = ReadFails(t);
        Assert.That(e.Problem, Does.Contain("out of order"));
    }

    [Test]
    public void AColumnCountRunningIntoTheRows_IsRefused()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U16(t, 0x18, 60);
        var e = ReadFails(t);
        Assert.That(e.Problem, Does.Contain("runs into the rows"));
    }

    [Test]
    public void AnUnknownColumnFlag_IsRefusedAtTheColumn()
    {
        var t = UtfHandTables.SixColumns();
        t[0x20] = 0x5F;
        var e = ReadFails(t);
        Assert.That(e.Offset, Is.EqualTo(At + 0x20));
    }

    [Test]
    public void ARowWidthBelowTheColumns_IsRefused()
    {
        var t = UtfHandTables.SixColumns();
        UtfHandTables.U16(t, 0x1A, 3);
        var e = ReadFails(t);
        Assert.That(e.Problem, Does.Contain("row width"));
    }

    [Test]
    public void NotATable_IsRefused()
    {
        var e = ReadFails(new byte[64]);
        Assert.That(e.Offset, Is.EqualTo(At));
    }

    [Test]
    public void EveryTruncationAndEverySingleByteChange_IsReadOrRefusedCleanly()
    {
        var plain = UtfHandTables.SixColumns();
        foreach (var bytes in new[] { plain, UtfHandTables.Masked(plain) })
        {
            for (int n = 0; n < bytes.Length; n++)
                Assert.That(() => UtfTableReader.Read(bytes.AsSpan(0, n), File, At), Throws.TypeOf<ArchiveFormatException>(), $"truncated to {n}");
            var random = new Random(21);
            for (int i = 0; i < 4000; i++)
            {
                var changed = (byte[])bytes.Clone();
                changed[random.Next(changed.Length)] = (byte)random.Next(256);
                changed[random.Next(changed.Length)] = (byte)random.Next(256);
                try
                {
                    UtfTableReader.Read(changed, File, At);
                }
                catch (ArchiveFormatException)
                {
                }
            }
        }
    }
}
