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

/// <summary>What the README says of mod folders and ID-only CPKs: a file for one fails that archive, naming the file (exit 1).</summary>
public sealed class CpkIdOnlyModFolderTests
{
    [Test]
    public void Build_AModFileForAnIdOnlyCpk_FailsThatArchive_NamingTheFile()
    {
        using var dir = new TempDirectory("cli-cpk-id-mod");
        dir.Write("game/data/id.cpk", CpkTestWriter.WriteIdOnly([new(3, TestData.Random(1, 100)), new(8, TestData.Random(2, 200))]));
        dir.Write("mod/data/id.cpk/3.bin", [1, 2, 3]);

        var build = CliRun.Run("build", "--game", dir["game"], "--mod", dir["mod"], "--no-cache");
        Assert.That(build.ExitCode, Is.EqualTo(1), build.ToString());
        Assert.That(build.Out, Does.Contain("entries of an ID-only CPK are addressed by ID").And.Contain("'3.bin'"), build.ToString());
        Assert.That(build.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), build.ToString());
        Assert.That(build.Error, Does.Contain("1 of 1 archives failed (data/id.cpk)"), build.ToString());
    }
}
