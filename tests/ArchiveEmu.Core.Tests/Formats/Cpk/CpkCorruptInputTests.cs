using System.Buffers.Binary;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>Hostile CPKs: one ArchiveFormatException naming the file and the offset, never a read outside the file.</summary>
public sealed class CpkCorruptInputTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cpk-bad");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[] Original() => CpkTestWriter.WriteNamed(CpkTestFiles.Named());

    private ArchiveFormatException ReadFails(byte[] bytes)
    {
        var path = _dir.Write($"{Guid.NewGuid():N}.cpk", bytes);
        var e = Assert.Throws<ArchiveFormatException>(() => CpkFormat.Instance.ReadIndex(path))!;
        Assert.That(e.Message, Does.Contain(path));
        return e;
    }

    // The header table is plain in these files: a u64 column's value found by its bytes in the one row.
    private static int HeaderValueAt(byte[] cpk, ulong value)
    {
        Span<byte> be = stackalloc byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(be, value);
        int at = cpk.AsSpan(0x10, 0x7F0).IndexOf(be);
        Assert.That(at, Is.GreaterThanOrEqualTo(0));
        return 0x10 + at;
    }

    [Test]
    public void AHeaderPacketSizePastTheEnd_IsRefusedAtTheSizeField()
    {
        var cpk = Original();
        BinaryPrimitives.WriteUInt64LittleEndian(cpk.AsSpan(8), 1UL << 40);
        var e = ReadFails(cpk);
        Assert.That(e.Offset, Is.EqualTo(8));
    }

    [Test]
    public void ATocOffsetPastTheEnd_IsRefused()
    {
        var cpk = Original();
        BinaryPrimitives.WriteUInt64BigEndian(cpk.AsSpan(HeaderValueAt(cpk, 0x800)), (ulong)cpk.Length + 0x100);
        var e = ReadFails(cpk);
        Assert.That(e.Problem, Does.Contain("TOC packet"));
    }

    [Test]
    public void AnEntryPastTheEnd_IsRefusedNamingIt()
    {
        var cpk = Original();
        var e = ReadFails(cpk[..^(0x800 - 50)]); // the last entry (100 bytes, then padding to 0x800) is cut after 50
        Assert.That(e.Problem, Does.Contain("sound/bgm.awb").And.Contain("outside"));
    }

    [Test]
    public void ACpkWithNeitherTocNorItoc_IsRefused()
    {
        var cpk = Original();
        BinaryPrimitives.WriteUInt64BigEndian(cpk.AsSpan(HeaderValueAt(cpk, 0x800)), 0);
        var e = ReadFails(cpk);
        Assert.That(e.Problem, Does.Contain("neither a TOC nor an ITOC"));
    }

    [Test]
    public void EveryTruncationAndRandomChanges_AreReadOrRefusedCleanly()
    {
        foreach (var cpk in new[] { Original(), CpkTestWriter.WriteIdOnly([new(1, TestData.Random(1, 100)), new(4, TestData.Random(2, 70000))], new(0x20, Masked: true)) })
        {
            var path = _dir["fuzz.cpk"];
            var random = new Random(21);
            for (int i = 0; i < 300; i++)
            {
                var changed = (byte[])cpk.Clone();
                if (i % 3 == 0)
                    changed = changed[..random.Next(changed.Length)];
                else
                    for (int k = 0; k < 3; k++)
                        changed[random.Next(Math.Min(changed.Length, 0x1000))] = (byte)random.Next(256);
                File.WriteAllBytes(path, changed);
                try
                {
                    if (ArchiveFormats.Detect(path) is CpkFormat)
                        CpkFormat.Instance.ReadIndex(path);
                }
                catch (ArchiveFormatException)
                {
                }
            }
        }
    }
}
