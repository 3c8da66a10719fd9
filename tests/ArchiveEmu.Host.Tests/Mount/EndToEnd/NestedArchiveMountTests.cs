using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 19, archives inside archives from the mod path, through a real mount: a PAK whose entry holds a PAK a mod changes
/// inside holds the mod's file and every other member as it was (read by PakV2Records, no product code), emulated and
/// merged, and a changed inner mod file reaches new opens.
/// </summary>
[TestFixture("kernel", "never")]
[TestFixture("kernel", "always")]
[TestFixture("libfuse", "never")]
[NonParallelizable]
public sealed class NestedArchiveMountTests(string fuse, string merge) : SampleGameMountFixture(fuse, merge)
{
    private const string Outer = "data/init.pak";
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");

    private protected override void Prepare(SampleGame game)
    {
        game.Write("game/" + Outer, PakTestWriter.Write(V2, [
            ("init/loading.arc", PakTestWriter.Write(V2, [("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(2, 400))])),
            ("init/other.bin", TestData.Random(3, 500)),
        ]));
        game.Write("mods/hd-textures/" + Outer + "/init/loading.arc/mini_tv.tmx", TestData.Random(4, 444));
    }

    [Test]
    public void TheOuterArchive_ReadThroughTheMount_HoldsTheModsInnerFile_AndAChangedInnerFileReachesNewOpens()
    {
        var mounted = File.ReadAllBytes(_game.Mounted(Outer));
        AssertOuterKept(mounted);
        Assert.That(Inner(mounted), Is.EqualTo(new[] { ("a.tmx", TestData.Random(1, 300)), ("mini_tv.tmx", TestData.Random(4, 444)) }));

        _game.Write("mods/hd-textures/" + Outer + "/init/loading.arc/mini_tv.tmx", TestData.Random(5, 555));
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (Inner(File.ReadAllBytes(_game.Mounted(Outer)))[1].Bytes.Length != 555 && DateTime.UtcNow < deadline)
            Thread.Sleep(100); // hot reload: once the mod folder is quiet for 300 ms
        mounted = File.ReadAllBytes(_game.Mounted(Outer));
        Assert.That(Inner(mounted)[1].Bytes, Is.EqualTo(TestData.Random(5, 555)), _host.Output);
        AssertOuterKept(mounted);
    }

    // The outer PAK's other member and the inner PAK's untouched one are the originals', by PakV2Records (no product code).
    private void AssertOuterKept(byte[] mounted)
    {
        Assert.That(PakV2Records.Members(mounted).Select(m => m.Name), Is.EqualTo(new[] { "init/loading.arc", "init/other.bin" }), _host.Output);
        Assert.That(PakV2Records.Members(mounted)[1].Bytes, Is.EqualTo(TestData.Random(3, 500)));
        Assert.That(Inner(mounted).Select(m => m.Name), Is.EqualTo(new[] { "a.tmx", "mini_tv.tmx" }));
    }

    // The inner PAK's members, by a walk of V2 records (PakV2Records) that must cover each PAK exactly.
    private static List<(string Name, byte[] Bytes)> Inner(byte[] outer) => PakV2Records.Members(PakV2Records.Members(outer).Single(m => m.Name == "init/loading.arc").Bytes);
}
