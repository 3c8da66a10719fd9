using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using Test = ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>A CPK with a GTOC, a table ArchiveEmu copies as found: replacing works and keeps it; adding or deleting is refused.</summary>
public sealed class CpkKeptTablesTests
{
    private TempDirectory _dir = null!;
    private byte[] _gtoc = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cpk-gtoc");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    // The writer's CPK with a GTOC packet appended and the header pointing at it. The header is re-written with the
    // product's @UTF writer: this input tests what the builder keeps and refuses, not how the header is laid out.
    private string WithGtoc()
    {
        var cpk = CpkTestWriter.WriteNamed(CpkTestFiles.Named());
        var table = UtfTestWriter.Write("CpkGtocInfo", 1, [new("Glink", Test.UtfType.U32, Test.UtfStorage.PerRow, [7u])]);
        _gtoc = new byte[0x10 + table.Length];
        "GTOC"u8.CopyTo(_gtoc);
        BinaryPrimitives.WriteUInt32LittleEndian(_gtoc.AsSpan(4), 0xFF);
        BinaryPrimitives.WriteUInt64LittleEndian(_gtoc.AsSpan(8), (ulong)table.Length);
        table.CopyTo(_gtoc, 0x10);

        var header = UtfTableReader.Read(cpk.AsSpan(0x10), "seed", 0x10);
        header.SetInteger(0, "GtocOffset", cpk.Length);
        header.SetInteger(0, "GtocSize", _gtoc.Length);
        var headerTable = UtfTableWriter.Write(header);
        var output = cpk.Concat(_gtoc).ToArray();
        Array.Clear(output, 0x10, 0x7FA - 0x10);
        BinaryPrimitives.WriteUInt64LittleEndian(output.AsSpan(8), (ulong)headerTable.Length);
        headerTable.CopyTo(output, 0x10);
        return _dir.Write("gtoc.cpk", output);
    }

    [Test]
    public void Replace_KeepsTheGtocAsFound_AndTheHeaderPointsAtIt()
    {
        var path = WithGtoc();
        var index = (CpkIndex)CpkFormat.Instance.ReadIndex(path);
        Assert.That(index.HasGtoc, Is.True);
        var tex = TestData.Random(200, 5000);

        using var archive = CpkFormat.Instance.Build(index, new ArchivePatch([new EntryChange(EntryKey.ByName("battle/tex.dds"), EntryInput.FromBytes(tex), "mod")]));

        var bytes = AfsTests.Materialise(archive);
        var header = UtfTableReader.Read(bytes.AsSpan(0x10), "built", 0x10);
        long at = header.GetInteger(0, "GtocOffset")!.Value;
        Assert.That(bytes.AsSpan((int)at, _gtoc.Length).ToArray(), Is.EqualTo(_gtoc));
        Assert.That(header.GetInteger(0, "GtocSize"), Is.EqualTo(_gtoc.Length));
        var expected = CpkTestFiles.Named().Select(e => (e.DirName.Length == 0 ? e.FileName : e.DirName + "/" + e.FileName, e.Content)).ToList();
        expected[0] = ("battle/tex.dds", tex);
        CpkTestFiles.VerifyNamed(archive, _dir["out.cpk"], expected);
    }

    [Test]
    public void AddOrDelete_IsRefusedNamingTheGtoc()
    {
        var path = WithGtoc();
        var index = CpkFormat.Instance.ReadIndex(path);
        foreach (var change in new[] { new EntryChange(EntryKey.ByName("new.bin"), EntryInput.FromBytes(new byte[] { 1 }), "mod"), new EntryChange(EntryKey.ByName("root.txt"), null, "mod") })
        {
            var e = Assert.Throws<ArchiveFormatException>(() => CpkFormat.Instance.Build(index, new ArchivePatch([change])))!;
            string what = change.IsDelete ? "delete 'root.txt' (from mod)" : "add 'new.bin' (from mod)";
            Assert.That(e.Message, Does.Contain(path).And.Contain($"cannot {what}: this CPK has a GTOC table, which ArchiveEmu keeps as found "
                + "and which lists the entries; only replacing entries is supported"));
        }
    }
}
