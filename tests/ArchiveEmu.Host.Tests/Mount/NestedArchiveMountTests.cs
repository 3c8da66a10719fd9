using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount;

/// <summary>
/// Issue 19, archives inside archives from the mod path, through a real mount: a PAK whose entry holds a PAK a mod changes
/// inside reads as <c>archiveemu cat</c> writes it, emulated and merged, and a changed inner mod file reaches new opens.
/// </summary>
[TestFixture("kernel", "never")]
[TestFixture("kernel", "always")]
[TestFixture("libfuse", "never")]
[NonParallelizable]
public sealed class NestedArchiveMountTests(string fuse, string merge)
{
    private const string Outer = "data/init.pak";
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private SampleGame _game = null!;
    private HostProcess _host = null!;

    [OneTimeSetUp]
    public void Mount()
    {
        LibFuseProbe.RequireTransport(fuse);
        _game = new SampleGame();
        _game.Write("game/" + Outer, PakTestWriter.Write(V2, [
            ("init/loading.arc", PakTestWriter.Write(V2, [("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(2, 400))])),
            ("init/other.bin", TestData.Random(3, 500)),
        ]));
        _game.Write("mods/hd-textures/" + Outer + "/init/loading.arc/mini_tv.tmx", TestData.Random(4, 444));
        _host = HostProcess.StartHost(_game.MountPoint, _game.HostArgs(merge, $"--ArchiveEmu:Fuse={fuse}")).WaitMounted();
    }

    [OneTimeTearDown]
    public void Unmount()
    {
        _host?.Dispose();
        _game?.Dispose();
    }

    [Test]
    public void TheOuterArchive_ReadThroughTheMount_IsWhatCatWrites_AndAChangedInnerFileReachesNewOpens()
    {
        var mounted = File.ReadAllBytes(_game.Mounted(Outer));
        Assert.That(mounted, Is.EqualTo(_game.Cat(Outer)));
        Assert.That(Inner(mounted), Is.EqualTo(new[] { ("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(4, 444)) }));

        _game.Write("mods/hd-textures/" + Outer + "/init/loading.arc/mini_tv.tmx", TestData.Random(5, 555));
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (Inner(File.ReadAllBytes(_game.Mounted(Outer)))[1].Bytes.Length != 555 && DateTime.UtcNow < deadline)
            Thread.Sleep(100); // hot reload: once the mod folder is quiet for 300 ms
        mounted = File.ReadAllBytes(_game.Mounted(Outer));
        Assert.That(Inner(mounted)[1].Bytes, Is.EqualTo(TestData.Random(5, 555)), _host.Output);
        Assert.That(mounted, Is.EqualTo(_game.Cat(Outer)));
    }

    // The inner PAK's members, by a walk of V2 records (PakV2Records) that must cover each PAK exactly.
    private static List<(string Name, byte[] Bytes)> Inner(byte[] outer) => PakV2Records.Members(PakV2Records.Members(outer).Single(m => m.Name == "init/loading.arc").Bytes);
}
