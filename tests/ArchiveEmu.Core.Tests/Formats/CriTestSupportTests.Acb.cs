using System.Security.Cryptography;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>AcbTestWriter's cue sheets re-read by the independent @UTF reader, nested tables included.</summary>
public sealed partial class CriTestSupportTests
{
    [TestCase(true, true)]
    [TestCase(false, false)]
    public void AcbTestWriter_StreamedAwb_ReadsBackAsOneHeaderRowKeepingTheAwbsHeaderAndMd5(bool headerAsTable, bool hashAsTable)
    {
        var awb = AwbTestWriter.Write([TestData.Random(30, 700), TestData.Random(31, 90), TestData.Random(32, 3000)]);
        var acb = _dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb, HeaderAsTable: headerAsTable, HashAsTable: hashAsTable)));
        var header = UtfIndependentReader.Read(acb);

        Assert.That(header.Name, Is.EqualTo("Header"));
        Assert.That(header.Size, Is.EqualTo(new FileInfo(acb).Length));
        Assert.That(header.Rows, Has.Length.EqualTo(1));
        Assert.That(header.Columns.Select(c => c.Name), Is.SupersetOf(new[] { "Name", "AwbFile", "StreamAwbHash", "StreamAwbAfs2Header", "CueTable", "WaveformTable" }));
        var row = header.Rows[0];
        Assert.That(row["Name"].GetString(), Is.EqualTo("bgm"));
        Assert.That(row["AwbFile"].GetProperty("size").GetInt32(), Is.Zero);

        var copy = headerAsTable ? NestedData(row["StreamAwbAfs2Header"], "StreamAwbHeader", "Header") : Hex(row["StreamAwbAfs2Header"]);
        Assert.That(copy, Is.EqualTo(awb[..(0x10 + 3 * 2 + 4 * 4)]), "the copy is the AFS2 header, ids and positions");
        var hash = hashAsTable ? NestedData(row["StreamAwbHash"], "StreamAwb", "Hash") : Hex(row["StreamAwbHash"]);
        Assert.That(hash, Is.EqualTo(MD5.HashData(awb)));
        var cues = Nested(row["CueTable"]);
        Assert.That(cues.Name, Is.EqualTo("Cue"));
        Assert.That(cues.Rows.Select(r => r["CueId"].GetInt32()), Is.EqualTo(new[] { 100, 101, 102 }));
    }

    [Test]
    public void AcbTestWriter_MemoryAwb_AwbFileHoldsTheAwbWhole()
    {
        var entries = new[] { TestData.Random(33, 500), TestData.Random(34, 40) };
        var awb = AwbTestWriter.Write(entries);
        var acb = _dir.Write("se.acb", AcbTestWriter.Write(new(Name: "se", MemoryAwb: awb, ConstantTocWork: true)));
        var row = UtfIndependentReader.Read(acb).Rows[0];

        Assert.That(Hex(row["AwbFile"]), Is.EqualTo(awb));
        Assert.That(row["StreamAwbAfs2Header"].GetProperty("size").GetInt32(), Is.Zero);
        Assert.That(row["StreamAwbTocWork"].GetProperty("size").GetInt32(), Is.EqualTo(40));
        var read = AwbIndependentReader.Read(_dir.Write("inner.awb", Hex(row["AwbFile"])));
        Assert.That(read.Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Convert.ToHexStringLower(SHA256.HashData(e)))));
    }

    /// <summary>A data value's bytes, as the independent reader reports them (hex, up to 64 KiB).</summary>
    internal static byte[] Hex(JsonElement data) => Convert.FromHexString(data.GetProperty("hex").GetString()!);

    /// <summary>A data value read as a nested @UTF table by the independent reader.</summary>
    internal UtfIndependentReader.Table Nested(JsonElement data) =>
        UtfIndependentReader.Read(_dir.Write($"nested-{Guid.NewGuid():N}.utf", Hex(data)));

    private byte[] NestedData(JsonElement data, string tableName, string column)
    {
        var table = Nested(data);
        Assert.That(table.Name, Is.EqualTo(tableName));
        Assert.That(table.Rows, Has.Length.EqualTo(1));
        return Hex(table.Rows[0][column]);
    }
}
