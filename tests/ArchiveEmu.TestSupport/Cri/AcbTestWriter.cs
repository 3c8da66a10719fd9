using System.Buffers.Binary;
using System.Security.Cryptography;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// Writes ACB cue sheets for tests, shaped like real ones (docs/FORMATS.md "CRI ACB"): one @UTF table named "Header"
/// with one row, its cue and waveform tables nested as @UTF data, and either an in-memory AWB (AwbFile) or a streamed
/// AWB's header copy (StreamAwbAfs2Header) and MD5 (StreamAwbHash), each raw or as a nested table. Kept apart from the
/// product: the copy's length and the hash are computed here from the AWB's own bytes.
/// </summary>
public static class AcbTestWriter
{
    /// <summary>What to write.</summary>
    /// <param name="Name">The cue sheet's name (Header.Name) and the streamed AWB's name (StreamAwbHash.Name).</param>
    /// <param name="MemoryAwb">An AWB stored in the ACB (AwbFile), or null.</param>
    /// <param name="StreamAwb">The streamed AWB next to the ACB, whose header copy and hash the ACB keeps, or null.</param>
    /// <param name="HeaderAsTable">The header copy nested in a "StreamAwbHeader" table's Header column (newer ACBs), else raw AFS2 bytes (older).</param>
    /// <param name="HashAsTable">The hash nested in a "StreamAwb" table with Name and Hash (newer ACBs), else the 16 bytes raw.</param>
    /// <param name="WithHash">Whether the ACB has a StreamAwbHash at all.</param>
    /// <param name="ConstantTocWork">StreamAwbTocWork stored as a constant column (its value in the schema, not the row).</param>
    /// <param name="Cues">How many cues (and waveforms) the nested tables list.</param>
    /// <param name="CopyPastTable">Bytes the header copy holds past the AWB's id and position table (writers differ; see FORMATS.md).</param>
    public sealed record Options(
        string Name = "bgm", byte[]? MemoryAwb = null, byte[]? StreamAwb = null, bool HeaderAsTable = true,
        bool HashAsTable = true, bool WithHash = true, bool ConstantTocWork = false, int Cues = 3, int CopyPastTable = 0);

    /// <summary>The ACB's bytes.</summary>
    public static byte[] Write(Options o)
    {
        byte[]? headerCopy = o.StreamAwb is null ? null : HeaderCopy(o.StreamAwb, o.CopyPastTable);
        byte[]? hash = o.StreamAwb is null || !o.WithHash ? null : MD5.HashData(o.StreamAwb);
        var tocWork = TestData.Random(77, 40);
        var columns = new List<UtfColumn>
        {
            Row("FileIdentifier", UtfType.U32, 0u),
            Row("Size", UtfType.U32, 0u),
            Row("Version", UtfType.U32, 0x01300000u),
            Row("Type", UtfType.U8, (byte)0),
            Row("Target", UtfType.U8, (byte)0),
            Row("AcbGuid", UtfType.Data, TestData.Random(78, 16)),
            Row("Name", UtfType.String, o.Name),
            Row("CueTable", UtfType.Data, CueTable(o.Cues)),
            Row("CueNameTable", UtfType.Data, CueNameTable(o.Cues)),
            Row("WaveformTable", UtfType.Data, WaveformTable(o.Cues, streamed: o.StreamAwb is not null)),
            UtfColumn.Zero("SynthTable", UtfType.Data),
            Row("AwbFile", UtfType.Data, o.MemoryAwb),
            Row("VersionString", UtfType.String, "\nACB Format/PC Ver.1.30.00 Build:\n"),
            Row("StreamAwbHash", UtfType.Data, hash is null ? null : o.HashAsTable ? HashTable(o.Name, hash) : hash),
            o.ConstantTocWork ? UtfColumn.Constant("StreamAwbTocWork", UtfType.Data, tocWork) : Row("StreamAwbTocWork", UtfType.Data, tocWork),
            Row("StreamAwbAfs2Header", UtfType.Data, headerCopy is null ? null : o.HeaderAsTable ? HeaderTable(headerCopy) : headerCopy),
            Row("PaddingArea", UtfType.Data, new byte[24]),
        };
        return UtfTestWriter.Write("Header", 1, columns);
    }

    /// <summary>
    /// The streamed AWB's header as the ACB copies it: the AFS2 header, ids and positions (up to pos[0]), and
    /// <paramref name="pastTable"/> more bytes.
    /// </summary>
    public static byte[] HeaderCopy(byte[] awb, int pastTable = 0)
    {
        long count = BinaryPrimitives.ReadUInt32LittleEndian(awb.AsSpan(8));
        long tableEnd = 0x10 + count * awb[6] + (count + 1) * awb[5];
        return awb.AsSpan(0, (int)tableEnd + pastTable).ToArray();
    }

    /// <summary>The nested StreamAwbAfs2Header table: one row, the copy in its Header column.</summary>
    public static byte[] HeaderTable(byte[] headerCopy) =>
        UtfTestWriter.Write("StreamAwbHeader", 1, [Row("Header", UtfType.Data, headerCopy)]);

    /// <summary>The nested StreamAwbHash table: the AWB's name and the MD5 of the whole AWB file.</summary>
    public static byte[] HashTable(string name, byte[] hash) =>
        UtfTestWriter.Write("StreamAwb", 1, [Row("Name", UtfType.String, name), Row("Hash", UtfType.Data, hash)]);

    private static byte[] CueTable(int cues) => UtfTestWriter.Write("Cue", cues,
    [
        UtfColumn.Auto("CueId", UtfType.U32, Enumerable.Range(0, cues).Select(i => (object?)(uint)(100 + i)).ToList()),
        UtfColumn.Constant("ReferenceType", UtfType.U8, (byte)3),
        UtfColumn.Auto("ReferenceIndex", UtfType.U16, Enumerable.Range(0, cues).Select(i => (object?)(ushort)i).ToList()),
        UtfColumn.Auto("Length", UtfType.U32, Enumerable.Range(0, cues).Select(i => (object?)(uint)(1000 * (i + 1))).ToList()),
    ]);

    private static byte[] CueNameTable(int cues) => UtfTestWriter.Write("CueName", cues,
    [
        UtfColumn.Auto("CueName", UtfType.String, Enumerable.Range(0, cues).Select(i => (object?)$"cue_{i:D3}").ToList()),
        UtfColumn.Auto("CueIndex", UtfType.U16, Enumerable.Range(0, cues).Select(i => (object?)(ushort)i).ToList()),
    ]);

    private static byte[] WaveformTable(int cues, bool streamed) => UtfTestWriter.Write("Waveform", cues,
    [
        UtfColumn.Auto("MemoryAwbId", UtfType.U16, Enumerable.Range(0, cues).Select(i => (object?)(ushort)(streamed ? 0xFFFF : i)).ToList()),
        UtfColumn.Constant("EncodeType", UtfType.U8, (byte)2),
        UtfColumn.Constant("Streaming", UtfType.U8, (byte)(streamed ? 1 : 0)),
        UtfColumn.Auto("StreamAwbId", UtfType.U16, Enumerable.Range(0, cues).Select(i => (object?)(ushort)(streamed ? i : 0xFFFF)).ToList()),
        UtfColumn.Constant("StreamAwbPortNo", UtfType.U16, (ushort)(streamed ? 0 : 0xFFFF)),
        UtfColumn.Auto("NumSamples", UtfType.U32, Enumerable.Range(0, cues).Select(i => (object?)(uint)(44100 * (i + 1))).ToList()),
    ]);

    private static UtfColumn Row(string name, UtfType type, object? value) => new(name, type, UtfStorage.PerRow, [value]);
}
