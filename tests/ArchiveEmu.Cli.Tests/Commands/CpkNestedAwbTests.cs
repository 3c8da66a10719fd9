using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>The README's nested CPK layout: <c>mod/data/data.cpk/sound/bgm.awb/2.hca</c> changes entry 2 of the AWB stored in the CPK.</summary>
public sealed class CpkNestedAwbTests
{
    [Test]
    public void Cat_AModFileThroughAnAwbInACpk_ChangesThatAwbEntry_AndNothingElse()
    {
        using var dir = new TempDirectory("cli-cpk-awb");
        var hca = new[] { TestData.Random(1, 900), TestData.Random(2, 1200), TestData.Random(3, 700), TestData.Random(4, 1500) };
        var other = TestData.Random(5, 3000);
        dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("battle", "tex.dds", other), new("sound", "bgm.awb", AwbTestWriter.Write(hca))]));
        var mod = dir.Write("mod/data/data.cpk/sound/bgm.awb/2.hca", TestData.Random(6, 2222));

        var output = dir["out.cpk"];
        var cat = CliRun.Run("cat", "--game", dir["game"], "--mod", dir["mod"], "--no-cache", "data/data.cpk", "-o", output);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());

        var cpk = CpkIndependentReader.Read(output);
        Assert.That(cpk.Entries.Select(e => e.Path), Is.EqualTo(new[] { "battle/tex.dds", "sound/bgm.awb" }));
        Assert.That(cpk.Entries[0].ContentSha256, Is.EqualTo(AfsIndependentReader.Sha256(other)));
        var awb = cpk.Entries[1];
        var awbFile = dir.Write("bgm.awb", File.ReadAllBytes(output).AsSpan((int)awb.Offset, (int)awb.FileSize).ToArray());
        var expected = hca.Select(AfsIndependentReader.Sha256).ToArray();
        expected[2] = AfsIndependentReader.Sha256(File.ReadAllBytes(mod));
        Assert.That(AwbIndependentReader.Read(awbFile).Entries.Select(e => e.Sha256), Is.EqualTo(expected));
    }
}
