using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>The CRI test tools checked against each other: the C# writers' files re-read by the independent Python reader.</summary>
public sealed partial class CriTestSupportTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cri");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void NamedCpk_ReadBack_GivesEveryEntryAlignedWithItsBytesAndTheHeaderFields()
    {
        var entries = new List<CpkTestWriter.NamedEntry>
        {
            new("battle", "tex.dds", TestData.Random(1, 5000)),
            new("battle", "model.bin", TestData.Random(2, 0x800)),
            new("", "root.txt", Encoding.UTF8.GetBytes("hello")),
            new("sound/bgm", "empty.bin", [], Id: 77, UserString: "note"),
        };
        var bytes = CpkTestWriter.WriteNamed(entries);
        var read = CpkIndependentReader.Read(_dir.Write("data.cpk", bytes));

        Assert.That(read.Kind, Is.EqualTo("named"));
        Assert.That(read.Masked, Is.False);
        Assert.That(read.Alignment, Is.EqualTo(0x800));
        Assert.That(read.TocOffset, Is.EqualTo(0x800));
        Assert.That(read.ContentOffset % 0x800, Is.Zero);
        Assert.That(read.HeaderNumber("Files"), Is.EqualTo(4));
        Assert.That(read.HeaderNumber("CpkMode"), Is.EqualTo(1));
        Assert.That(read.HeaderNumber("EnabledDataSize"), Is.EqualTo(5000 + 0x800 + 5));
        Assert.That(read.Header["Tvers"].GetString(), Is.EqualTo(CpkTestWriter.DefaultTvers));
        Assert.That(Encoding.ASCII.GetString(bytes, 0x7FA, 6), Is.EqualTo("(c)CRI"));
        Assert.That(BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(0x18)), Is.EqualTo(1), "the newer @UTF version by default");
        Assert.That(read.Entries.Select(e => e.Path), Is.EqualTo(new[] { "battle/tex.dds", "battle/model.bin", "root.txt", "sound/bgm/empty.bin" }));
        Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new long[] { 0, 1, 2, 77 }));
        Assert.That(read.Entries.Select(e => e.UserString), Is.EqualTo(new[] { "<NULL>", "<NULL>", "<NULL>", "note" }));
        for (int i = 0; i < entries.Count; i++)
        {
            var entry = read.Entries[i];
            Assert.That(entry.Offset % 0x800, Is.Zero, entry.Path);
            Assert.That(entry.FileOffset, Is.EqualTo(entry.Offset - 0x800), "FileOffset counts from the TOC packet");
            Assert.That(entry.Compressed, Is.False);
            Assert.That(bytes.AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray(), Is.EqualTo(entries[i].Content));
            Assert.That(entry.ContentSha256, Is.EqualTo(Sha256(entries[i].Content)));
        }
    }

    [TestCase(0x800, false, false)]
    [TestCase(0x20, true, false)]
    [TestCase(0x800, true, true)]
    public void NamedCpk_WrittenEntryByEntryToAStream_IsTheSameBytes(int alignment, bool etoc, bool paddedSizes)
    {
        // The load-trace benchmark's 2 GB CPK is written this way; an ETOC's padding is written to the stream too.
        var entries = Enumerable.Range(0, 9).Select(i => new CpkTestWriter.NamedEntry($"d{i % 3}", $"f{i}.bin", TestData.Random(70 + i, 1 + i * 1013))).ToList();
        var options = new CpkTestWriter.Options(Alignment: alignment, WithEtoc: etoc, PaddedSizes: paddedSizes);
        using var stream = new MemoryStream();
        CpkTestWriter.WriteNamed(stream, entries.Select(e => e with { Content = [] }).ToList(), entries.Select(e => e.Content.Length).ToList(),
            (i, bytes) => entries[i].Content.CopyTo(bytes), options);
        Assert.That(stream.ToArray(), Is.EqualTo(CpkTestWriter.WriteNamed(entries, options)));
    }

    [Test]
    public void NamedCpk_WithEtocAndSmallAlignment_KeepsEntriesOnThatAlignmentAndGivesLocalDirs()
    {
        var entries = Enumerable.Range(0, 7).Select(i => new CpkTestWriter.NamedEntry($"d{i % 2}", $"f{i}.bin", TestData.Random(10 + i, 3 + i * 37))).ToList();
        var bytes = CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(Alignment: 0x20, WithEtoc: true, UpdateDateTime: 123456, UtfVersion: 0));
        var read = CpkIndependentReader.Read(_dir.Write("small.cpk", bytes));

        Assert.That(BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(0x18)), Is.Zero, "the older @UTF version");

        Assert.That(read.Alignment, Is.EqualTo(0x20));
        Assert.That(read.EtocOffset, Is.GreaterThan(read.Entries.Max(e => e.Offset)), "the ETOC follows the content");
        Assert.That(read.Entries.Select(e => e.Offset % 0x20), Is.All.Zero);
        Assert.That(read.Entries.Select(e => e.LocalDir), Is.EqualTo(entries.Select(e => e.DirName)));
        Assert.That(read.Entries.Select(e => e.ContentSha256), Is.EqualTo(entries.Select(e => Sha256(e.Content))));
    }

    [Test]
    public void IdOnlyCpk_ReadBack_GivesEntriesInIdOrderAndSplitsDataLAndDataHBySize()
    {
        var entries = new List<CpkTestWriter.IdEntry>
        {
            new(9, TestData.Random(20, 0x10000)),
            new(2, TestData.Random(21, 100)),
            new(5, TestData.Random(22, 0xFFFF)),
            new(7, []),
        };
        var bytes = CpkTestWriter.WriteIdOnly(entries);
        var path = _dir.Write("id.cpk", bytes);
        var read = CpkIndependentReader.Read(path);

        Assert.That(read.Kind, Is.EqualTo("id"));
        Assert.That(read.ItocOffset, Is.EqualTo(0x800));
        Assert.That(read.HeaderNumber("CpkMode"), Is.Zero);
        Assert.That(read.Entries.Select(e => e.Id), Is.EqualTo(new long[] { 2, 5, 7, 9 }));
        foreach (var entry in read.Entries)
        {
            var content = entries.Single(e => e.Id == entry.Id).Content;
            Assert.That(entry.Offset % 0x800, Is.Zero);
            Assert.That(bytes.AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray(), Is.EqualTo(content));
        }

        var itoc = UtfIndependentReader.Read(path, 0x810);
        Assert.That(itoc.Name, Is.EqualTo("CpkItocInfo"));
        Assert.That(itoc.Rows[0]["FilesL"].GetInt64(), Is.EqualTo(3), "sizes up to 0xFFFF go to DataL");
        Assert.That(itoc.Rows[0]["FilesH"].GetInt64(), Is.EqualTo(1));
        var dataH = UtfIndependentReader.Read(_dir.Write("h.utf", Convert.FromHexString(itoc.Rows[0]["DataH"].GetProperty("hex").GetString()!)));
        Assert.That(dataH.Name, Is.EqualTo("CpkItocH"));
        Assert.That(dataH.Columns.Select(c => (c.Name, c.Type)), Is.EqualTo(new[] { ("ID", 2), ("FileSize", 4), ("ExtractSize", 4) }));
        Assert.That(dataH.Rows.Single()["ID"].GetInt64(), Is.EqualTo(9));
    }

    [Test]
    public void MaskedCpk_TablesAreMaskedOnDiskAndReadBackLikeThePlainOne()
    {
        var entries = new List<CpkTestWriter.NamedEntry> { new("a", "1.bin", TestData.Random(30, 900)), new("b", "2.bin", TestData.Random(31, 3000)) };
        var masked = CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(Masked: true, WithEtoc: true));
        var plain = CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(WithEtoc: true));
        var readMasked = CpkIndependentReader.Read(_dir.Write("masked.cpk", masked));
        var readPlain = CpkIndependentReader.Read(_dir.Write("plain.cpk", plain));

        Assert.That(Encoding.ASCII.GetString(masked, 0x10, 4), Is.Not.EqualTo("@UTF"));
        Assert.That(Encoding.ASCII.GetString(masked, 0x810, 4), Is.Not.EqualTo("@UTF"));
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(masked.AsSpan(4)), Is.Zero, "masked packets carry flag 0");
        Assert.That(BinaryPrimitives.ReadUInt32LittleEndian(plain.AsSpan(4)), Is.EqualTo(0xFF));
        Assert.That(readMasked.Masked, Is.True);
        Assert.That(readMasked.Entries, Is.EqualTo(readPlain.Entries));
        var idMasked = CpkIndependentReader.Read(_dir.Write("idmasked.cpk", CpkTestWriter.WriteIdOnly([new(1, TestData.Random(32, 70000))], new CpkTestWriter.Options(Masked: true))));
        Assert.That(idMasked.Masked, Is.True);
        Assert.That(idMasked.Entries.Single().FileSize, Is.EqualTo(70000));
    }

    [TestCase(false)]
    [TestCase(true)]
    public void UtfTable_EveryTypeAndStorage_ReadsBackThroughTheIndependentReader(bool masked)
    {
        var columns = new List<UtfColumn>
        {
            new("u8", UtfType.U8, UtfStorage.PerRow, [(byte)1, (byte)255]),
            new("s8", UtfType.S8, UtfStorage.PerRow, [(sbyte)-1, (sbyte)127]),
            UtfColumn.Constant("u16", UtfType.U16, (ushort)0xBEEF),
            new("s16", UtfType.S16, UtfStorage.PerRow, [(short)-300, (short)300]),
            new("u32", UtfType.U32, UtfStorage.PerRow, [0xFFFFFFFFu, 0u]),
            UtfColumn.Constant("s32", UtfType.S32, -70000),
            new("u64", UtfType.U64, UtfStorage.PerRow, [ulong.MaxValue >> 1, 5ul]),
            new("s64", UtfType.S64, UtfStorage.PerRow, [long.MinValue, 1L]),
            new("f32", UtfType.Float, UtfStorage.PerRow, [1.5f, -2.25f]),
            new("str", UtfType.String, UtfStorage.PerRow, ["first", null]),
            UtfColumn.Constant("cstr", UtfType.String, "same"),
            new("blob", UtfType.Data, UtfStorage.PerRow, [new byte[] { 1, 2, 3 }, null]),
            UtfColumn.Zero("none", UtfType.U32),
        };
        var path = _dir.Write("t.utf", UtfTestWriter.Write("TestTable", 2, columns, masked));
        var table = UtfIndependentReader.Read(path);

        Assert.That(table.Name, Is.EqualTo("TestTable"));
        Assert.That(table.Masked, Is.EqualTo(masked));
        Assert.That(table.Columns.Select(c => c.Storage), Is.EqualTo(columns.Select(c => c.Storage switch
        {
            UtfStorage.Zero => "zero",
            UtfStorage.Constant => "constant",
            _ => "perrow",
        })));
        var rows = table.Rows;
        Assert.That(rows.Select(r => r["u8"].GetInt64()), Is.EqualTo(new long[] { 1, 255 }));
        Assert.That(rows.Select(r => r["s8"].GetInt64()), Is.EqualTo(new long[] { -1, 127 }));
        Assert.That(rows.Select(r => r["u16"].GetInt64()), Is.EqualTo(new long[] { 0xBEEF, 0xBEEF }));
        Assert.That(rows.Select(r => r["s16"].GetInt64()), Is.EqualTo(new long[] { -300, 300 }));
        Assert.That(rows.Select(r => r["u32"].GetInt64()), Is.EqualTo(new long[] { 0xFFFFFFFF, 0 }));
        Assert.That(rows.Select(r => r["s32"].GetInt64()), Is.EqualTo(new long[] { -70000, -70000 }));
        Assert.That(rows.Select(r => r["u64"].GetInt64()), Is.EqualTo(new long[] { long.MaxValue, 5 }));
        Assert.That(rows.Select(r => r["s64"].GetInt64()), Is.EqualTo(new long[] { long.MinValue, 1 }));
        Assert.That(rows.Select(r => r["f32"].GetDouble()), Is.EqualTo(new[] { 1.5, -2.25 }));
        Assert.That(rows.Select(r => r["str"].GetString()), Is.EqualTo(new[] { "first", "<NULL>" }));
        Assert.That(rows.Select(r => r["cstr"].GetString()), Is.EqualTo(new[] { "same", "same" }));
        Assert.That(rows[0]["blob"].GetProperty("hex").GetString(), Is.EqualTo("010203"));
        Assert.That(rows[1]["blob"].GetProperty("size").GetInt64(), Is.Zero);
        Assert.That(rows.Select(r => r["none"].ValueKind), Is.All.EqualTo(System.Text.Json.JsonValueKind.Null));
    }

    [Test]
    public void Reader_EntryPastTheEndOfTheFile_IsRejectedNamingTheEntry()
    {
        var bytes = CpkTestWriter.WriteNamed(TwoEntries());
        PatchTocRow(bytes, row: 1, at: 12, value: 0x100000, width: 8); // FileOffset
        var result = CpkIndependentReader.TryRead(_dir.Write("past.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("entry 1 (d/b.bin").And.Contain("outside the content"));
    }

    [Test]
    public void Reader_StringOffsetOutsideThePool_IsRejectedNamingTheColumn()
    {
        var bytes = CpkTestWriter.WriteNamed(TwoEntries());
        PatchTocRow(bytes, row: 0, at: 0, value: 0xFFFF, width: 4); // FileName
        var result = CpkIndependentReader.TryRead(_dir.Write("string.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("TOC table at 0x810").And.Contain("row 0 column FileName: string offset 0xffff outside"));
    }

    [Test]
    public void Reader_EntryOffTheAlignment_IsRejected()
    {
        var bytes = CpkTestWriter.WriteNamed(TwoEntries());
        long fileOffset = (long)BinaryPrimitives.ReadUInt64BigEndian(TocRow(bytes, 1).AsSpan(12));
        PatchTocRow(bytes, row: 1, at: 12, value: fileOffset + 0x10, width: 8);
        var result = CpkIndependentReader.TryRead(_dir.Write("align.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("offset is not a multiple of Align 0x800"));
    }

    [Test]
    public void Reader_FilesCountNotMatchingTheToc_IsRejected()
    {
        var bytes = CpkTestWriter.WriteNamed(TwoEntries());
        var path = _dir.Write("files.cpk", bytes);
        var header = UtfIndependentReader.Read(path, 0x10);
        Assert.That(header.Rows.Single()["Files"].GetInt64(), Is.EqualTo(2));
        // Files is the only per-row u32 equal to 2 after Attrs; find it by its position in the row.
        int rowsOffset = BinaryPrimitives.ReadUInt16BigEndian(bytes.AsSpan(0x10 + 0x0A)) + 8;
        int filesAt = RowOffsetOf(header, "Files");
        BinaryPrimitives.WriteUInt32BigEndian(bytes.AsSpan(0x10 + rowsOffset + filesAt), 3);
        var result = CpkIndependentReader.TryRead(_dir.Write("files2.cpk", bytes));

        Assert.That(result.Rejection ?? "(accepted)", Does.Contain("Files is 3 but the table of contents lists 2 entries"));
    }

    [Test]
    public void TryReadMany_GivesEachFileItsEntriesOrItsRejection()
    {
        var good = _dir.Write("good.cpk", CpkTestWriter.WriteNamed(TwoEntries()));
        var bad = CpkTestWriter.WriteNamed(TwoEntries());
        var results = CpkIndependentReader.TryReadMany([good, _dir.Write("bad.cpk", bad[..^100])]);

        Assert.That(results[0].Archive?.Entries.Select(e => e.Path), Is.EqualTo(new[] { "d/a.bin", "d/b.bin" }));
        Assert.That(results[1].Rejection ?? "(accepted)", Does.Contain("ContentSize 0x1000 runs past the end of the file"));
    }

    [Test]
    public void UtfReader_HostileRowCountOrMagic_IsRejectedSayingWhat()
    {
        var table = UtfTestWriter.Write("T", 2, [new("v", UtfType.U32, UtfStorage.PerRow, [1u, 2u])]);
        var rows = (byte[])table.Clone();
        BinaryPrimitives.WriteUInt32BigEndian(rows.AsSpan(0x1C), 0xFFFFFFFF);
        var magic = (byte[])table.Clone();
        magic[1] ^= 0x20;

        Assert.That(UtfIndependentReader.TryRead(_dir.Write("rows.utf", rows)).Rejection ?? "(accepted)",
            Does.Contain("4294967295 rows of 4 bytes from 0x25 run past the string pool"));
        Assert.That(UtfIndependentReader.TryRead(_dir.Write("magic.utf", magic)).Rejection ?? "(accepted)",
            Does.Contain("no @UTF magic, masked or not"));
    }

    internal static List<CpkTestWriter.NamedEntry> TwoEntries() =>
        [new("d", "a.bin", TestData.Random(40, 1000)), new("d", "b.bin", TestData.Random(41, 2000))];

    // With one DirName (stored constant) a TOC row is FileName 0, FileSize 4, ExtractSize 8, FileOffset 12, ID 20.
    private static byte[] TocRow(byte[] cpk, int row)
    {
        int table = 0x810;
        int rowsOffset = BinaryPrimitives.ReadUInt16BigEndian(cpk.AsSpan(table + 0x0A)) + 8;
        int width = BinaryPrimitives.ReadUInt16BigEndian(cpk.AsSpan(table + 0x1A));
        Assert.That(width, Is.EqualTo(24));
        return cpk.AsSpan(table + rowsOffset + row * width, width).ToArray();
    }

    private static void PatchTocRow(byte[] cpk, int row, int at, long value, int width)
    {
        int table = 0x810;
        int rowsOffset = BinaryPrimitives.ReadUInt16BigEndian(cpk.AsSpan(table + 0x0A)) + 8;
        TocRow(cpk, row);
        var span = cpk.AsSpan(table + rowsOffset + row * 24 + at, width);
        if (width == 8)
            BinaryPrimitives.WriteUInt64BigEndian(span, (ulong)value);
        else
            BinaryPrimitives.WriteUInt32BigEndian(span, (uint)value);
    }

    private static int RowOffsetOf(UtfIndependentReader.Table table, string column) =>
        table.Columns.TakeWhile(c => c.Name != column).Where(c => c.Storage == "perrow").Sum(c => UtfTestWriter.Width((UtfType)c.Type));

    internal static string Sha256(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
