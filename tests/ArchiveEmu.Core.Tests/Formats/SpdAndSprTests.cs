using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>What the two Atlus sprite formats share, checked once for each (their own rules: <see cref="SpdTests"/>, <see cref="SprTests"/>).</summary>
public sealed class SpdAndSprTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("spd-spr");

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private static byte[] Original(string format) => format == "spd" ? SpdTests.Original() : SprTests.Original();

    /// <summary>The format's independent reader over <paramref name="bytes"/>: throws unless they are a whole, valid file.</summary>
    private static void ReadIndependently(string format, byte[] bytes)
    {
        if (format == "spd")
            SpdIndependentReader.Read(bytes, "emulated SPD");
        else
            SprIndependentReader.Read(bytes, "emulated SPR");
    }

    [TestCase("spd")]
    [TestCase("spr")]
    public void Build_WithNoChanges_IsTheOriginalByteForByte(string format)
    {
        var path = _dir.Write($"game/original.{format}", Original(format));
        var archiveFormat = ArchiveFormats.ByName(format)!;
        using var archive = archiveFormat.Build(archiveFormat.ReadIndex(path), ArchivePatch.Empty);
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        ReadIndependently(format, bytes);
        Assert.That(bytes, Is.EqualTo(File.ReadAllBytes(path)));
    }
}
