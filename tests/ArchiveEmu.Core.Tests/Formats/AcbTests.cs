using System.Security.Cryptography;
using System.Text.Json;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// ACBs from AcbTestWriter kept consistent with emulated AWBs; every emulated ACB re-read by the independent @UTF reader,
/// its AWB header copy, hash and in-memory AWB checked byte for byte and every other value unchanged.
/// </summary>
public sealed class AcbTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("acb");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Read_StreamedAcb_FindsTheHeaderCopyAndHashTheWriterStored()
    {
        var awb = AwbTestWriter.Write(Entries(4));
        var path = _dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb)));
        var acb = AcbFile.Read(path);

        Assert.That(acb.MemoryAwb, Is.Null);
        Assert.That(acb.StreamAwbHeader!.Nested!.Name, Is.EqualTo("StreamAwbHeader"));
        Assert.That(acb.StreamAwbHeader.Values.Single(), Is.EqualTo(AcbTestWriter.HeaderCopy(awb)));
        Assert.That(acb.StreamAwbHash!.Values.Single(), Is.EqualTo(MD5.HashData(awb)));
        var field = acb.StreamAwbHeader.Field;
        Assert.That(File.ReadAllBytes(path).AsSpan((int)field.Offset, (int)field.Size).ToArray(),
            Is.EqualTo(AcbTestWriter.HeaderTable(AcbTestWriter.HeaderCopy(awb))), "the field points at the nested table's bytes");
        Assert.That(acb.StreamAwbRow("BGM"), Is.Zero, "names compare case-insensitively");
    }

    [Test]
    public void Read_MemoryAcb_FindsTheInMemoryAwbsOffsetAndSize()
    {
        var awb = AwbTestWriter.Write(Entries(3));
        var path = _dir.Write("se.acb", AcbTestWriter.Write(new(MemoryAwb: awb)));
        var acb = AcbFile.Read(path);

        Assert.That(acb.StreamAwbHeader, Is.Null);
        Assert.That(acb.StreamAwbHash, Is.Null);
        Assert.That(acb.MemoryAwb!.Size, Is.EqualTo(awb.Length));
        Assert.That(File.ReadAllBytes(path).AsSpan((int)acb.MemoryAwb.Offset, awb.Length).ToArray(), Is.EqualTo(awb));
    }

    [Test]
    public void Build_NothingChanged_IsByteIdenticalToTheOriginal()
    {
        var path = _dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write(Entries(2)))));
        using var file = AcbBuilder.Build(AcbFile.Read(path), new AcbPatch());
        Assert.That(Materialise(file), Is.EqualTo(File.ReadAllBytes(path)));
    }

    [TestCase(true, true, false, false)]
    [TestCase(false, false, false, false)]
    [TestCase(true, false, true, false)]
    [TestCase(true, true, false, true)]
    public void Build_StreamedAwbWithAnEntryReplaced_HeaderCopyAndHashAreTheEmulatedAwbsAndAllElseIsUnchanged(
        bool headerAsTable, bool hashAsTable, bool constantTocWork, bool addEntries)
    {
        var awbPath = _dir.Write("bgm.awb", AwbTestWriter.Write(Entries(5)));
        var options = new AcbTestWriter.Options(StreamAwb: File.ReadAllBytes(awbPath), HeaderAsTable: headerAsTable, HashAsTable: hashAsTable, ConstantTocWork: constantTocWork);
        var acbPath = _dir.Write("bgm.acb", AcbTestWriter.Write(options));
        var changes = new List<EntryChange> { Replace(1, TestData.Random(200, 70_000)) };
        if (addEntries)
            changes.Add(Replace(7, TestData.Random(201, 100)));
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(awbPath), new ArchivePatch(changes));
        var emulatedAwb = Materialise(awb.File);

        using var acb = AcbBuilder.Build(AcbFile.Read(acbPath), new AcbPatch(awb.File, "bgm"));
        var built = _dir.Write("built.acb", Materialise(acb));

        var before = UtfIndependentReader.Read(acbPath);
        var after = UtfIndependentReader.Read(built);
        AcbFollowCheck.AssertSameExcept(before, after, "StreamAwbAfs2Header", "StreamAwbHash");
        Assert.That(after.Size, Is.EqualTo(new FileInfo(built).Length), "the table's size field counts the new values");
        var row = after.Rows[0];
        var copy = headerAsTable ? NestedValue(row["StreamAwbAfs2Header"], before.Rows[0]["StreamAwbAfs2Header"], "Header") : AcbFollowCheck.Hex(row["StreamAwbAfs2Header"]);
        Assert.That(copy, Is.EqualTo(AcbTestWriter.HeaderCopy(emulatedAwb)));
        Assert.That(copy, Is.Not.EqualTo(AcbTestWriter.HeaderCopy(File.ReadAllBytes(awbPath))), "the test changes the header");
        var hash = hashAsTable ? NestedValue(row["StreamAwbHash"], before.Rows[0]["StreamAwbHash"], "Hash") : AcbFollowCheck.Hex(row["StreamAwbHash"]);
        Assert.That(hash, Is.EqualTo(MD5.HashData(emulatedAwb)));
    }

    [Test]
    public void Build_StreamedAwbAndAnAcbWithoutAHash_OnlyTheHeaderCopyChanges()
    {
        var awbPath = _dir.Write("bgm.awb", AwbTestWriter.Write(Entries(3)));
        var acbPath = _dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awbPath), WithHash: false)));
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(awbPath), new ArchivePatch([Replace(0, TestData.Random(202, 9))]));
        using var acb = AcbBuilder.Build(AcbFile.Read(acbPath), new AcbPatch(awb.File, "bgm"));

        var after = UtfIndependentReader.Read(_dir.Write("built.acb", Materialise(acb)));
        AcbFollowCheck.AssertSameExcept(UtfIndependentReader.Read(acbPath), after, "StreamAwbAfs2Header");
        Assert.That(NestedValue(after.Rows[0]["StreamAwbAfs2Header"], null, "Header"), Is.EqualTo(AcbTestWriter.HeaderCopy(Materialise(awb.File))));
    }

    [Test]
    public void Build_HeaderCopyLongerThanTheAwbsTable_KeepsHoldingAsManyBytesPastTheTable()
    {
        var awbPath = _dir.Write("bgm.awb", AwbTestWriter.Write(Entries(3), new AwbTestWriter.Options(IdWidth: 4)));
        var acbPath = _dir.Write("bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awbPath), CopyPastTable: 4)));
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(awbPath), new ArchivePatch([Replace(5, TestData.Random(208, 64))]));
        using var acb = AcbBuilder.Build(AcbFile.Read(acbPath), new AcbPatch(awb.File, "bgm"));

        var row = UtfIndependentReader.Read(_dir.Write("built.acb", Materialise(acb))).Rows[0];
        var copy = NestedValue(row["StreamAwbAfs2Header"], null, "Header");
        Assert.That(copy, Is.EqualTo(AcbTestWriter.HeaderCopy(Materialise(awb.File), pastTable: 4)));
        Assert.That(copy, Has.Length.EqualTo(0x10 + 6 * 4 + 7 * 4 + 4), "six entries now: the table grew, the 4 bytes past it stay");
    }

    [Test]
    public void Build_AllZeroHash_IsKeptAsNoHash()
    {
        var awbBytes = AwbTestWriter.Write(Entries(3));
        var awbPath = _dir.Write("bgm.awb", awbBytes);
        var acbBytes = AcbTestWriter.Write(new(StreamAwb: awbBytes, HashAsTable: false));
        acbBytes.AsSpan().Slice(acbBytes.AsSpan().IndexOf(MD5.HashData(awbBytes)), 16).Clear();
        var acbPath = _dir.Write("bgm.acb", acbBytes);
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(awbPath), new ArchivePatch([Replace(5, TestData.Random(209, 64))]));
        using var acb = AcbBuilder.Build(AcbFile.Read(acbPath), new AcbPatch(awb.File, "bgm"));

        var after = UtfIndependentReader.Read(_dir.Write("built.acb", Materialise(acb)));
        AcbFollowCheck.AssertSameExcept(UtfIndependentReader.Read(acbPath), after, "StreamAwbAfs2Header");
        Assert.That(AcbFollowCheck.Hex(after.Rows[0]["StreamAwbHash"]), Is.EqualTo(new byte[16]));
    }

    [Test]
    public void Build_MemoryAwbWithAnEntryReplaced_AwbFileIsTheEmulatedAwbMadeOfSlicesNotCopies()
    {
        var entries = Entries(4);
        var acbPath = _dir.Write("se.acb", AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(entries))));
        var mod = _dir.Write("mod/2.hca", TestData.Random(203, 5000));
        var original = AcbFile.Read(acbPath);
        var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(original.MemoryAwbSource()),
            new ArchivePatch([new EntryChange(EntryKey.ByIndex(2), EntryInput.FromFile(mod), "mod")]));
        var emulatedAwb = Materialise(awb.File);
        using var acb = AcbBuilder.Build(original, new AcbPatch(MemoryAwb: awb.File));
        awb.Dispose(); // the ACB holds the AWB's own segments, not the AWB

        var built = _dir.Write("built.acb", Materialise(acb));
        var before = UtfIndependentReader.Read(acbPath);
        var after = UtfIndependentReader.Read(built);
        AcbFollowCheck.AssertSameExcept(before, after, "AwbFile");
        var inner = AcbFollowCheck.Hex(after.Rows[0]["AwbFile"]);
        Assert.That(inner, Is.EqualTo(emulatedAwb));
        entries[2] = File.ReadAllBytes(mod);
        var read = AwbIndependentReader.Read(_dir.Write("inner.awb", inner));
        Assert.That(read.Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Convert.ToHexStringLower(SHA256.HashData(e!)))));

        long inMemory = 0;
        foreach (var segment in acb.Segments)
            inMemory += segment.Source is MemorySource ? segment.Length : 0;
        Assert.That(inMemory, Is.LessThanOrEqualTo(original.Prefix.Length + 0x100), "only the table's head and the AWB's own table are in memory");
        Assert.That(acb.Files.Select(f => f.Path), Does.Contain(Path.GetFullPath(mod)));
    }

    // Replacement sizes that grow or shrink the AWB by amounts that are no multiple of 32 (nor of 16), by 0, and by ±32.
    [TestCase(100)]
    [TestCase(132)]
    [TestCase(68)]
    [TestCase(13)]
    [TestCase(117)]
    [TestCase(133)]
    [TestCase(1000)]
    public void Build_ValuesAfterAReplacedOneKeepTheirAlignmentModulo32(int size)
    {
        // An AWB aligned to 4 bytes: its size changes by amounts a 32-byte alignment of its own would hide.
        var acbPath = _dir.Write("se.acb", AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(Entries(2), new(Alignment: 4)))));
        var original = AcbFile.Read(acbPath);
        using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(original.MemoryAwbSource()),
            new ArchivePatch([Replace(0, TestData.Random(204, size))]));
        using var acb = AcbBuilder.Build(original, new AcbPatch(MemoryAwb: awb.File));

        // Both tables' data values located by UtfDataOffsets (TestSupport), never by the product's AcbFile.
        var before = UtfDataOffsets.Read(File.ReadAllBytes(acbPath));
        var after = UtfDataOffsets.Read(Materialise(acb));
        Assert.That(after.Select(f => (f.Row, f.Column)), Is.EqualTo(before.Select(f => (f.Row, f.Column))));
        var awbFile = before.Single(f => f.Column == "AwbFile");
        Assert.That(after.Single(f => f.Column == "AwbFile").Size, Is.EqualTo(awb.File.Length), "the data value holds the emulated AWB");
        var moved = before.Zip(after).Where(p => p.First.Column != "AwbFile" && p.First.Size > 0).ToList();
        Assert.That(moved.Where(p => p.First.Offset > awbFile.Offset), Is.Not.Empty, "a value after the replaced one");
        // The move is the AWB's size change rounded up (toward +infinity) to a multiple of 32: +1 moves 32, -40 moves -32.
        long change = awb.File.Length - awbFile.Size;
        Assert.That(moved.Where(p => p.First.Offset > awbFile.Offset).Select(p => p.Second.Offset - p.First.Offset).Distinct().Single(),
            Is.EqualTo((long)Math.Ceiling(change / 32.0) * 32), $"the AWB changed by {change} bytes");
        Assert.That(moved.Select(p => p.Second.Offset % 32), Is.EqualTo(moved.Select(p => p.First.Offset % 32)));
    }

    [Test]
    public void Build_AcbStoredInsideAnotherFile_IsReadAndSlicedInPlace()
    {
        var acbBytes = AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(Entries(3))));
        var alone = _dir.Write("se.acb", acbBytes);
        var holder = _dir.Write("data.cpk", [.. TestData.Random(205, 0x1000), .. acbBytes, .. TestData.Random(206, 77)]);

        byte[] Emulate(AcbFile acb)
        {
            using var awb = AwbFormat.Instance.Build(AwbFormat.Instance.ReadIndex(acb.MemoryAwbSource()), new ArchivePatch([Replace(1, TestData.Random(207, 999))]));
            using var file = AcbBuilder.Build(acb, new AcbPatch(MemoryAwb: awb.File));
            return Materialise(file);
        }

        var inside = Emulate(AcbFile.Read(ArchiveSource.Slice(holder, 0x1000, acbBytes.Length)));
        Assert.That(inside, Is.EqualTo(Emulate(AcbFile.Read(alone))));
    }

    internal static List<byte[]?> Entries(int count) =>
        Enumerable.Range(0, count).Select(i => (byte[]?)TestData.Random(210 + i, 100 + 37 * i)).ToList();

    internal static EntryChange Replace(int index, byte[] bytes) => new(EntryKey.ByIndex(index), EntryInput.FromBytes(bytes), "mod");

    internal static byte[] Materialise(VirtualFile file)
    {
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    /// <summary>A nested table's value column, read by the independent reader; its other columns equal the original nested table's.</summary>
    private byte[] NestedValue(JsonElement data, JsonElement? originalData, string column)
    {
        var table = UtfIndependentReader.Read(_dir.Write($"nested-{Guid.NewGuid():N}.utf", AcbFollowCheck.Hex(data)));
        if (originalData is { } o)
            AcbFollowCheck.AssertSameExcept(UtfIndependentReader.Read(_dir.Write($"nested-{Guid.NewGuid():N}.utf", AcbFollowCheck.Hex(o))), table, column);
        return AcbFollowCheck.Hex(table.Rows.Single()[column]);
    }
}
