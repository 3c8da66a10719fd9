using System.Buffers;
using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Zip;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// The ZIP records the builder writes, field by field at the offsets of PKWARE's APPNOTE (4.3.7 local header, 4.3.12
/// central record, 4.3.14–16 end records, 4.5.3 the zip64 extra field). The sizes and offsets that need zip64 (4 GiB and
/// more) are given as numbers: no test needs 4 GiB of data to see them written. The offsets and signatures here are
/// the APPNOTE's, written out again rather than taken from <c>ZipRecords</c>.
/// </summary>
public sealed class ZipRecordWriterTests
{
    private const long FourGiBMinus1 = 0xFFFF_FFFFL; // the value zip64 takes over from: 0xFFFFFFFF means "see the zip64 block"
    private static readonly byte[] Name = "tex/a.dds"u8.ToArray();

    private static ZipEntryFields Fields(long compressed = 100, long uncompressed = 300, ushort versionNeeded = 20) =>
        new(versionNeeded, Flags: 0x0808, Method: 8, Time: 0x6B5A, Date: 0x5A21, Crc32: 0xDEADBEEF, compressed, uncompressed);

    [Test]
    public void LocalHeader_SmallEntry_WritesEveryField()
    {
        var h = ZipRecordWriter.LocalHeader(Name, Fields());
        Assert.That(h, Has.Length.EqualTo(30 + Name.Length));
        Assert.That(U32(h, 0), Is.EqualTo(0x04034b50u), "signature PK\\3\\4");
        Assert.That(new[] { U16(h, 4), U16(h, 6), U16(h, 8), U16(h, 10), U16(h, 12) }, Is.EqualTo(new ushort[] { 20, 0x0808, 8, 0x6B5A, 0x5A21 }),
            "version needed, flags, method, time, date");
        Assert.That(new[] { U32(h, 14), U32(h, 18), U32(h, 22) }, Is.EqualTo(new uint[] { 0xDEADBEEF, 100, 300 }), "CRC, compressed, uncompressed");
        Assert.That(new[] { U16(h, 26), U16(h, 28) }, Is.EqualTo(new ushort[] { (ushort)Name.Length, 0 }), "name and extra lengths");
        Assert.That(h[30..], Is.EqualTo(Name));
    }

    [TestCase(FourGiBMinus1 - 1, 100L, false)]
    [TestCase(FourGiBMinus1, 100L, true)]
    [TestCase(100L, FourGiBMinus1, true)]
    [TestCase(5L << 30, (5L << 30) - 7, true)]
    public void LocalHeader_ASizeOf4GiBOrMore_MovesBothSizesIntoAZip64Block(long uncompressed, long compressed, bool zip64)
    {
        var h = ZipRecordWriter.LocalHeader(Name, Fields(compressed, uncompressed));
        if (!zip64)
        {
            Assert.That(h, Has.Length.EqualTo(30 + Name.Length));
            Assert.That(new[] { U32(h, 18), U32(h, 22) }, Is.EqualTo(new[] { (uint)compressed, (uint)uncompressed }));
            Assert.That(U16(h, 4), Is.EqualTo(20));
            return;
        }
        Assert.That(h, Has.Length.EqualTo(30 + Name.Length + 20));
        Assert.That(U16(h, 4), Is.EqualTo(45), "version 4.5 is needed to read zip64");
        Assert.That(new[] { U32(h, 18), U32(h, 22) }, Is.EqualTo(new[] { uint.MaxValue, uint.MaxValue }), "in a local header both sizes move");
        Assert.That(U16(h, 28), Is.EqualTo(20), "extra field length");
        Assert.That(h[30..(30 + Name.Length)], Is.EqualTo(Name));
        int block = 30 + Name.Length;
        Assert.That(new[] { U16(h, block), U16(h, block + 2) }, Is.EqualTo(new ushort[] { 1, 16 }), "zip64 block: id 1, 16 bytes");
        Assert.That(new[] { U64(h, block + 4), U64(h, block + 12) }, Is.EqualTo(new[] { uncompressed, compressed }), "uncompressed first");
    }

    [Test]
    public void LocalHeader_Zip64_KeepsAHigherVersionNeeded()
    {
        var h = ZipRecordWriter.LocalHeader(Name, Fields(5L << 30, 5L << 30, versionNeeded: 63));
        Assert.That(U16(h, 4), Is.EqualTo(63));
    }

    [Test]
    public void CentralRecord_NewFile_WritesEveryFieldWithTheUnixTemplate()
    {
        var extra = new byte[] { 0xFE, 0xCA, 2, 0, 7, 8 };
        var comment = "said"u8.ToArray();
        var r = Central(ZipRecordWriter.NewFileTemplate, Fields(), 0x1234_5678, extra, comment);
        Assert.That(r, Has.Length.EqualTo(46 + Name.Length + extra.Length + comment.Length));
        Assert.That(U32(r, 0), Is.EqualTo(0x02014b50u), "signature PK\\1\\2");
        Assert.That(U16(r, 4), Is.EqualTo(0x0314), "made by Unix (3), version 2.0");
        Assert.That(new[] { U16(r, 6), U16(r, 8), U16(r, 10), U16(r, 12), U16(r, 14) }, Is.EqualTo(new ushort[] { 20, 0x0808, 8, 0x6B5A, 0x5A21 }));
        Assert.That(new[] { U32(r, 16), U32(r, 20), U32(r, 24) }, Is.EqualTo(new uint[] { 0xDEADBEEF, 100, 300 }));
        Assert.That(new[] { U16(r, 28), U16(r, 30), U16(r, 32), U16(r, 34), U16(r, 36) },
            Is.EqualTo(new ushort[] { (ushort)Name.Length, (ushort)extra.Length, (ushort)comment.Length, 0, 0 }),
            "name, extra and comment lengths, disk 0, internal attributes 0");
        Assert.That(U32(r, 38), Is.EqualTo(0x81A4_0000u), "external attributes: S_IFREG | 0644 in the high half");
        Assert.That(U32(r, 42), Is.EqualTo(0x1234_5678u), "the local header's offset");
        Assert.That(r[46..], Is.EqualTo(Name.Concat(extra).Concat(comment).ToArray()), "name, extra, comment");
    }

    [Test]
    public void CentralRecord_FromAnOriginal_KeepsItsMadeByAndAttributesButNotItsDiskNumber()
    {
        var template = new byte[46];
        BinaryPrimitives.WriteUInt16LittleEndian(template.AsSpan(4), 0x003F); // made by MS-DOS, 6.3
        BinaryPrimitives.WriteUInt16LittleEndian(template.AsSpan(34), 3);     // a disk number from a split archive
        BinaryPrimitives.WriteUInt16LittleEndian(template.AsSpan(36), 1);     // internal: text
        BinaryPrimitives.WriteUInt32LittleEndian(template.AsSpan(38), 0x20);  // external: archive bit
        var r = Central(template, Fields(), 7, [], []);
        Assert.That(new[] { U16(r, 4), U16(r, 34), U16(r, 36) }, Is.EqualTo(new ushort[] { 0x003F, 0, 1 }));
        Assert.That(U32(r, 38), Is.EqualTo(0x20u));
        Assert.That(U32(r, 0), Is.EqualTo(0u), "the signature is the template's: an original's record already has it");
    }

    // Each value that reaches 0xFFFFFFFF moves into the block, in the APPNOTE's order: uncompressed, compressed, offset.
    [TestCase(FourGiBMinus1 - 1, FourGiBMinus1 - 1, FourGiBMinus1 - 1, new bool[] { false, false, false })]
    [TestCase(FourGiBMinus1, 100L, 200L, new[] { true, false, false })]
    [TestCase(100L, FourGiBMinus1, 200L, new[] { false, true, false })]
    [TestCase(100L, 200L, FourGiBMinus1, new[] { false, false, true })]
    [TestCase(6L << 30, 5L << 30, 7L << 30, new[] { true, true, true })]
    [TestCase(6L << 30, 100L, 7L << 30, new[] { true, false, true })]
    public void CentralRecord_ValuesOf4GiBOrMore_MoveIntoAZip64BlockAfterTheOtherExtras(long uncompressed, long compressed, long offset, bool[] wide)
    {
        var extra = new byte[] { 0xFE, 0xCA, 1, 0, 9 };
        var comment = "c"u8.ToArray();
        var r = Central(ZipRecordWriter.NewFileTemplate, Fields(compressed, uncompressed), offset, extra, comment);
        int values = wide.Count(w => w);
        int block = values == 0 ? 0 : 4 + 8 * values;
        Assert.That(r, Has.Length.EqualTo(46 + Name.Length + extra.Length + block + comment.Length));
        Assert.That(U16(r, 6), Is.EqualTo(values > 0 ? 45 : 20), "version needed");
        Assert.That(U32(r, 24), Is.EqualTo(wide[0] ? uint.MaxValue : (uint)uncompressed));
        Assert.That(U32(r, 20), Is.EqualTo(wide[1] ? uint.MaxValue : (uint)compressed));
        Assert.That(U32(r, 42), Is.EqualTo(wide[2] ? uint.MaxValue : (uint)offset));
        Assert.That(U16(r, 30), Is.EqualTo(extra.Length + block), "extra field length, the zip64 block included");
        int at = 46 + Name.Length;
        Assert.That(r[at..(at + extra.Length)], Is.EqualTo(extra), "the other extras first");
        at += extra.Length;
        if (values > 0)
        {
            Assert.That(new[] { U16(r, at), U16(r, at + 2) }, Is.EqualTo(new[] { (ushort)1, (ushort)(8 * values) }));
            var expected = new[] { (wide[0], uncompressed), (wide[1], compressed), (wide[2], offset) }.Where(v => v.Item1).Select(v => v.Item2);
            Assert.That(Enumerable.Range(0, values).Select(k => U64(r, at + 4 + 8 * k)), Is.EqualTo(expected));
            at += block;
        }
        Assert.That(r[at..], Is.EqualTo(comment), "the comment last");
    }

    [Test]
    public void CentralRecord_Zip64_KeepsAHigherVersionNeeded()
    {
        var r = Central(ZipRecordWriter.NewFileTemplate, Fields(100, 100, versionNeeded: 63), 5L << 30, [], []);
        Assert.That(U16(r, 6), Is.EqualTo(63));
    }

    [Test]
    public void CentralRecord_AnExtraFieldWithNoRoomForTheZip64Block_IsRefusedAtOneByteOver()
    {
        var output = new ArrayBufferWriter<byte>();
        // One wide value takes a 12-byte block; the extra field's length is a u16.
        Assert.That(ZipRecordWriter.TryAppendCentralRecord(output, ZipRecordWriter.NewFileTemplate, Fields(), 5L << 30, Name,
            new byte[ushort.MaxValue - 12], []), Is.True);
        int written = output.WrittenCount;
        Assert.That(U16(output.WrittenSpan.ToArray(), 30), Is.EqualTo(ushort.MaxValue));
        Assert.That(ZipRecordWriter.TryAppendCentralRecord(output, ZipRecordWriter.NewFileTemplate, Fields(), 5L << 30, Name,
            new byte[ushort.MaxValue - 11], []), Is.False);
        Assert.That(output.WrittenCount, Is.EqualTo(written), "nothing written for the refused record");
    }

    [Test]
    public void End_SmallArchive_IsOneEndRecordWithTheComment()
    {
        var comment = "made for a test"u8.ToArray();
        var e = End(directoryOffset: 0x0102_0304, directorySize: 0x0506, count: ushort.MaxValue - 1, comment);
        Assert.That(e, Has.Length.EqualTo(22 + comment.Length), "no zip64 records below the limits");
        Assert.That(U32(e, 0), Is.EqualTo(0x06054b50u));
        Assert.That(new[] { U16(e, 4), U16(e, 6), U16(e, 8), U16(e, 10) }, Is.EqualTo(new ushort[] { 0, 0, ushort.MaxValue - 1, ushort.MaxValue - 1 }),
            "disk numbers 0, entries on this disk and in all");
        Assert.That(new[] { U32(e, 12), U32(e, 16) }, Is.EqualTo(new uint[] { 0x0506, 0x0102_0304 }), "directory size, then offset");
        Assert.That(U16(e, 20), Is.EqualTo(comment.Length));
        Assert.That(e[22..], Is.EqualTo(comment));
    }

    [TestCase(ushort.MaxValue, 1000L, 100L)]
    [TestCase(3L, FourGiBMinus1, 100L)]
    [TestCase(3L, 1000L, FourGiBMinus1)]
    [TestCase(70_000L, 9L << 30, 5L << 30)]
    public void End_ACountOrPlaceAtTheLimit_AddsTheZip64EndRecordAndLocator(long count, long directoryOffset, long directorySize)
    {
        var comment = "z"u8.ToArray();
        var e = End(directoryOffset, directorySize, count, comment);
        Assert.That(e, Has.Length.EqualTo(56 + 20 + 22 + comment.Length));
        Assert.That(U32(e, 0), Is.EqualTo(0x06064b50u), "zip64 end record");
        Assert.That(U64(e, 4), Is.EqualTo(44), "its size past the first 12 bytes");
        Assert.That(new[] { U16(e, 12), U16(e, 14) }, Is.EqualTo(new ushort[] { 45, 45 }), "made by and needed: 4.5");
        Assert.That(new[] { U32(e, 16), U32(e, 20) }, Is.EqualTo(new uint[] { 0, 0 }), "disk numbers");
        Assert.That(new[] { U64(e, 24), U64(e, 32), U64(e, 40), U64(e, 48) }, Is.EqualTo(new[] { count, count, directorySize, directoryOffset }));
        Assert.That(U32(e, 56), Is.EqualTo(0x07064b50u), "locator");
        Assert.That(U32(e, 60), Is.EqualTo(0u), "the disk holding the zip64 end record");
        Assert.That(U64(e, 64), Is.EqualTo(directoryOffset + directorySize), "the zip64 end record follows the directory");
        Assert.That(U32(e, 72), Is.EqualTo(1u), "one disk in all");
        var end = e[76..];
        Assert.That(U32(end, 0), Is.EqualTo(0x06054b50u));
        ushort shortCount = (ushort)Math.Min(count, ushort.MaxValue);
        Assert.That(new[] { U16(end, 4), U16(end, 6), U16(end, 8), U16(end, 10) }, Is.EqualTo(new ushort[] { 0, 0, shortCount, shortCount }));
        Assert.That(U32(end, 12), Is.EqualTo((uint)Math.Min(directorySize, FourGiBMinus1)));
        Assert.That(U32(end, 16), Is.EqualTo((uint)Math.Min(directoryOffset, FourGiBMinus1)));
        Assert.That(U16(end, 20), Is.EqualTo(1));
        Assert.That(end[22..], Is.EqualTo(comment));
    }

    [Test]
    public void Records_WrittenIntoAReusedBuffer_LeaveNoOldBytesInTheirUnsetFields()
    {
        // An ArrayBufferWriter hands out its old memory after ResetWrittenCount: every byte of a record must be written.
        var output = new ArrayBufferWriter<byte>(1024);
        output.GetSpan(1024)[..1024].Fill(0xAA);
        output.Advance(1024);
        output.ResetWrittenCount();
        ZipRecordWriter.AppendEnd(output, directoryOffset: 5L << 30, directorySize: 10, count: 1, []);
        var e = output.WrittenSpan.ToArray();
        Assert.That(new[] { U32(e, 16), U32(e, 20), U32(e, 60), U16(e, 80), U16(e, 82) }, Is.All.Zero, "disk numbers");
        Assert.That(e, Does.Not.Contain((byte)0xAA));
    }

    [Test]
    public void NewFileTemplate_ReadByPython_IsAUnixRegularFileWithMode0644()
    {
        // Python's zipfile reads the central record on its own: made-by system 3 (Unix) and the mode in the high half.
        var output = new ArrayBufferWriter<byte>();
        var local = ZipRecordWriter.LocalHeader(Name, new ZipEntryFields(20, 0, 0, 0x6B5A, 0x5A21, 0x352441C2, 3, 3));
        output.Write(local);
        output.Write("abc"u8);
        long directoryOffset = output.WrittenCount;
        Assert.That(ZipRecordWriter.TryAppendCentralRecord(output, ZipRecordWriter.NewFileTemplate,
            new ZipEntryFields(20, 0, 0, 0x6B5A, 0x5A21, 0x352441C2, 3, 3), 0, Name, [], []), Is.True);
        ZipRecordWriter.AppendEnd(output, directoryOffset, output.WrittenCount - directoryOffset, 1, []);
        using var dir = new ArchiveEmu.TestSupport.TempDirectory("zip-records");
        var path = dir.Write("one.zip", output.WrittenSpan.ToArray());
        var python = ArchiveEmu.TestSupport.ExternalTool.Python("""
import zipfile, sys
z = zipfile.ZipFile(sys.argv[1]); i = z.infolist()[0]
print(i.filename, i.create_system, i.create_version, oct(i.external_attr >> 16), i.date_time, z.read(i).decode())
""", path);
        Assert.That(python.StdOut.Trim(), Is.EqualTo("tex/a.dds 3 20 0o100644 (2025, 1, 1, 13, 26, 52) abc"), python.ToString());
    }

    private static byte[] Central(byte[] template, ZipEntryFields f, long offset, byte[] extra, byte[] comment)
    {
        var output = new ArrayBufferWriter<byte>();
        Assert.That(ZipRecordWriter.TryAppendCentralRecord(output, template, f, offset, Name, extra, comment), Is.True);
        return output.WrittenSpan.ToArray();
    }

    private static byte[] End(long directoryOffset, long directorySize, long count, byte[] comment)
    {
        var output = new ArrayBufferWriter<byte>();
        ZipRecordWriter.AppendEnd(output, directoryOffset, directorySize, count, comment);
        return output.WrittenSpan.ToArray();
    }

    private static ushort U16(byte[] b, int at) => BinaryPrimitives.ReadUInt16LittleEndian(b.AsSpan(at));
    private static uint U32(byte[] b, int at) => BinaryPrimitives.ReadUInt32LittleEndian(b.AsSpan(at));
    private static long U64(byte[] b, int at) => (long)BinaryPrimitives.ReadUInt64LittleEndian(b.AsSpan(at));
}
