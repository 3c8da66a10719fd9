using System.Security.Cryptography;
using System.Text.Json;

namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// Checks an emulated ACB against the emulated AWB it should follow, with the independent @UTF reader only: the header
/// copy is the AWB's first bytes (as AcbTestWriter copies them), the hash is MD5 of the whole AWB, and every other
/// column of the Header table is the original's. Nested tables as AcbTestWriter writes them (Header / Hash columns).
/// </summary>
public static class AcbFollowCheck
{
    /// <summary>Asserts that <paramref name="emulatedAcb"/> is <paramref name="originalAcb"/> made to describe <paramref name="emulatedAwb"/>.</summary>
    public static void AssertFollows(string originalAcb, string emulatedAcb, byte[] emulatedAwb, TempDirectory scratch)
    {
        var before = UtfIndependentReader.Read(originalAcb);
        var after = UtfIndependentReader.Read(emulatedAcb);
        AssertSameExcept(before, after, "StreamAwbAfs2Header", "StreamAwbHash");
        Assert.That(after.Size, Is.EqualTo(new FileInfo(emulatedAcb).Length), "the table's size field counts the new values");
        Assert.That(Nested(after.Rows[0]["StreamAwbAfs2Header"], "Header", scratch), Is.EqualTo(AcbTestWriter.HeaderCopy(emulatedAwb)));
        Assert.That(Nested(after.Rows[0]["StreamAwbHash"], "Hash", scratch), Is.EqualTo(MD5.HashData(emulatedAwb)));
    }

    /// <summary>The bytes of a data value the independent reader gave as hex.</summary>
    public static byte[] Hex(JsonElement data) => Convert.FromHexString(data.GetProperty("hex").GetString()!);

    /// <summary>Same table name and columns and, outside <paramref name="changed"/>, the same values.</summary>
    public static void AssertSameExcept(UtfIndependentReader.Table before, UtfIndependentReader.Table after, params string[] changed)
    {
        Assert.That(after.Name, Is.EqualTo(before.Name));
        Assert.That(after.Columns, Is.EqualTo(before.Columns));
        Assert.That(after.Rows, Has.Length.EqualTo(before.Rows.Length));
        foreach (var (b, a) in before.Rows.Zip(after.Rows))
            foreach (var column in before.Columns.Select(c => c.Name).Except(changed))
                Assert.That(a[column].GetRawText(), Is.EqualTo(b[column].GetRawText()), $"column {column}");
    }

    private static byte[] Nested(JsonElement data, string column, TempDirectory scratch)
    {
        var table = UtfIndependentReader.Read(scratch.Write($"nested-{Guid.NewGuid():N}.utf", Hex(data)));
        return Hex(table.Rows.Single()[column]);
    }
}
