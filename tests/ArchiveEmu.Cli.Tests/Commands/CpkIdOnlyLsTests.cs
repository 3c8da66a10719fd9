using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>An ID-only CPK in a game folder: ls lists its entries by position (no names), cat serves it unchanged.</summary>
public sealed class CpkIdOnlyLsTests
{
    [Test]
    public void LsAndCat_AnIdOnlyCpkNoModTouches_ListsItsEntriesAndServesTheOriginal()
    {
        using var dir = new TempDirectory("cli-cpk-id");
        var original = dir.Write("game/data/id.cpk", CpkTestWriter.WriteIdOnly([new(3, TestData.Random(1, 100)), new(8, TestData.Random(2, 200))]));
        dir.Write("mod/data/other.bin", [1]);

        var ls = CliRun.Run("ls", "--game", dir["game"], "--mod", dir["mod"], "--no-cache", "data/id.cpk");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out.TrimEnd('\n').Split('\n').Count(r => r.Contains("original  original", StringComparison.Ordinal)), Is.EqualTo(2), ls.Out);

        var output = dir["out.cpk"];
        var cat = CliRun.Run("cat", "--game", dir["game"], "--mod", dir["mod"], "--no-cache", "data/id.cpk", "-o", output);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(original)));
    }
}
