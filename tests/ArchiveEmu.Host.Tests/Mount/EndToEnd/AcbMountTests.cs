using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 21, "ACB follows its AWB", through a real mount: a mod changes an entry of <c>sound/bgm.awb</c>, and the game's
/// <c>sound/bgm.acb</c> follows it (header copy and MD5 of the emulated AWB, checked by AcbFollowCheck's independent readers); a changed mod
/// file reaches new opens of the ACB too.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class AcbMountTests(string fuse) : SampleGameMountFixture(fuse)
{
    private const string Awb = "sound/bgm.awb", Acb = "sound/bgm.acb";

    private protected override void Prepare(SampleGame game)
    {
        var awb = game.Write("game/" + Awb, AwbTestWriter.Write(Enumerable.Range(0, 3).Select(i => (byte[]?)TestData.Random(700 + i, 500 + i)).ToList()));
        game.Write("game/" + Acb, AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        game.Write("mods/hd-textures/" + Awb + "/1.hca", TestData.Random(710, 2000));
    }

    [Test]
    public void TheAcb_ReadThroughTheMount_FollowsTheEmulatedAwb_AndAChangedModFileReachesNewOpens()
    {
        AssertFollows();
        var before = File.ReadAllBytes(_game.Mounted(Acb));

        _game.Write("mods/hd-textures/" + Awb + "/1.hca", TestData.Random(711, 3000));
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (File.ReadAllBytes(_game.Mounted(Acb)).AsSpan().SequenceEqual(before) && DateTime.UtcNow < deadline)
            Thread.Sleep(100); // hot reload: once the mod folder is quiet
        AssertFollows();
    }

    private void AssertFollows()
    {
        var mounted = File.ReadAllBytes(_game.Mounted(Acb));
        using var scratch = new TempDirectory("acb-mount");
        AcbFollowCheck.AssertFollows(_game.Game + "/" + Acb, scratch.Write("mounted.acb", mounted), File.ReadAllBytes(_game.Mounted(Awb)), scratch);
    }
}
