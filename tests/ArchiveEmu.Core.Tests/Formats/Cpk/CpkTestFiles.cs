using System.Security.Cryptography;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>
/// CPK originals for the tests (written by TestSupport's CpkTestWriter, which shares no code with the product) and the
/// check every emulated CPK goes through: materialised, re-read by the independent Python reader and by ours, entry by
/// entry (name or ID, size, sha256 of the content).
/// </summary>
internal static class CpkTestFiles
{
    /// <summary>Five named entries: two folders, one at the root, sizes around the alignment.</summary>
    public static List<CpkTestWriter.NamedEntry> Named(int seed = 1, bool compressSome = false) =>
    [
        new("battle", "tex.dds", TestData.Random(seed, 3000)),
        new("battle", "zz.bin", Compressible(seed + 1, 5000), Compress: compressSome),
        new("field/map", "m01.bin", TestData.Random(seed + 2, 1)),
        new("", "root.txt", TestData.Random(seed + 3, 0x800)),
        new("sound", "bgm.awb", TestData.Random(seed + 4, 100)),
    ];

    /// <summary>Bytes that CRILAYLA shrinks (repeated runs).</summary>
    public static byte[] Compressible(int seed, int length)
    {
        var bytes = new byte[length];
        var random = new Random(seed);
        for (int i = 0; i < length; i++)
            bytes[i] = (byte)(i % 64 < 48 ? (i / 64) % 7 : random.Next(256));
        return bytes;
    }

    public static string Sha(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));

    public static byte[] Materialise(EmulatedArchive archive) => AfsTests.Materialise(archive);

    /// <summary>
    /// Writes the emulated CPK to <paramref name="path"/> and checks it with the independent reader and ours against
    /// <paramref name="expected"/> (path → content, in TOC order), returning the independent reader's view.
    /// </summary>
    public static CpkIndependentReader.Archive VerifyNamed(EmulatedArchive archive, string path, IReadOnlyList<(string Path, byte[] Content)> expected)
    {
        File.WriteAllBytes(path, Materialise(archive));
        var theirs = CpkIndependentReader.Read(path);
        Assert.That(theirs.Kind, Is.EqualTo("named"));
        Assert.That(theirs.Entries.Select(e => e.Path), Is.EqualTo(expected.Select(e => e.Path)));
        Assert.That(theirs.Entries.Select(e => e.ExtractSize), Is.EqualTo(expected.Select(e => (long)e.Content.Length)));
        Assert.That(theirs.Entries.Select(e => e.ContentSha256), Is.EqualTo(expected.Select(e => Sha(e.Content))));

        var ours = ArchiveFormats.ReadIndex(path);
        Assert.That(ours.Entries.Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Path)));
        Assert.That(ours.Entries.Select(e => e.Offset), Is.EqualTo(theirs.Entries.Select(e => e.Offset)));
        Assert.That(archive.Entries.Where(e => e.State != EntryState.Deleted).Select(e => e.Name), Is.EqualTo(expected.Select(e => e.Path)));
        return theirs;
    }

    /// <summary>As <see cref="VerifyNamed"/> for an ID-only CPK: <paramref name="expected"/> is (ID, content) in ID order.</summary>
    public static CpkIndependentReader.Archive VerifyIds(EmulatedArchive archive, string path, IReadOnlyList<(long Id, byte[] Content)> expected)
    {
        File.WriteAllBytes(path, Materialise(archive));
        var theirs = CpkIndependentReader.Read(path);
        Assert.That(theirs.Kind, Is.EqualTo("id"));
        Assert.That(theirs.Entries.Select(e => e.Id), Is.EqualTo(expected.Select(e => e.Id)));
        Assert.That(theirs.Entries.Select(e => e.ExtractSize), Is.EqualTo(expected.Select(e => (long)e.Content.Length)));
        Assert.That(theirs.Entries.Select(e => e.ContentSha256), Is.EqualTo(expected.Select(e => Sha(e.Content))));

        var ours = (Core.Formats.Cpk.CpkIndex)ArchiveFormats.ReadIndex(path);
        Assert.That(ours.Ids, Is.EqualTo(expected.Select(e => e.Id)));
        Assert.That(ours.Entries.Select(e => e.Offset), Is.EqualTo(theirs.Entries.Select(e => e.Offset)));
        return theirs;
    }
}
