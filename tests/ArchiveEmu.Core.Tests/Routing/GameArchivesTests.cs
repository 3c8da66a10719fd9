using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Afs;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>How a game file's format and addressing are found: detected once and kept until forgotten; a damaged header keeps the format's way.</summary>
public sealed class GameArchivesTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("game-archives");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void AFormatDetected_IsKeptUntilForgotten_AFileNoFormatKnowsIsNot()
    {
        var file = _dir.Write("game/data.bin", CpkTestWriter.WriteNamed([new("a", "b.bin", [1])]));
        var formats = new DetectedFormats();
        Assert.That(formats.Detect(file), Is.SameAs(CpkFormat.Instance));
        File.WriteAllBytes(file, AfsTestWriter.Write([[1, 2]]));
        Assert.That(formats.Detect(file), Is.SameAs(CpkFormat.Instance), "kept: the head is not read again");
        formats.Forget();
        Assert.That(formats.Detect(file), Is.SameAs(AfsFormat.Instance));

        var unknown = _dir.Write("game/text.bin", "no archive at all"u8.ToArray());
        Assert.That(formats.Detect(unknown), Is.Null);
        File.WriteAllBytes(unknown, AfsTestWriter.Write([[3]]));
        Assert.That(formats.Detect(unknown), Is.SameAs(AfsFormat.Instance), "an unknown file is looked at again");
    }

    [Test]
    public void ACpkWhoseHeaderCannotBeRead_IsAddressedTheFormatsWay()
    {
        byte[] damaged = [.. "CPK "u8, 0, 0, 0, 0, .. BitConverter.GetBytes(0x40L), .. "@UTF"u8, .. Enumerable.Repeat((byte)0xFF, 0x40)];
        var file = _dir.Write("game/damaged.cpk", damaged);
        var idOnly = _dir.Write("game/ids.cpk", CpkTestWriter.WriteIdOnly([new(3, [1, 2, 3])]));

        Assert.That(GameArchives.AddressingOf(CpkFormat.Instance, ArchiveSource.File(file)), Is.EqualTo(CpkFormat.Instance.Addressing).And.EqualTo(EntryAddressing.ByName));
        Assert.That(GameArchives.AddressingOf(CpkFormat.Instance, ArchiveSource.File(idOnly)), Is.EqualTo(EntryAddressing.ByIndex));
    }
}
