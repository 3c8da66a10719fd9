using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>An archive built around emulated inner archives leaves no handle open once it is disposed: the inner ones are let go at once.</summary>
public sealed class NestedRouteHandleTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");

    [Test]
    public void APakInAPak_BuiltReadAndDisposed_LeavesNoHandleInThePool()
    {
        using var dir = new TempDirectory("nested-handles");
        dir.Write("game/data/init.pak", PakTestWriter.Write(V2, [("init/loading.arc", PakTestWriter.Write(V2, [("a.tmx", TestData.Random(1, 700))])),
            ("other.bin", TestData.Random(2, 300))]));
        dir.Write("mod/data/init.pak/init/loading.arc/a.tmx", TestData.Random(3, 900));
        var route = new ModRouter(dir["game"], [dir["mod"]]).Resolve().FindArchive("data/init.pak")!;
        var pool = new FileHandlePool(8);

        using (var built = route.Build(pool))
        {
            var bytes = new byte[built.File.Length];
            built.File.ReadExactly(0, bytes);
            Assert.That(pool.FileCount, Is.GreaterThan(0), "the outer archive holds the game file and the mod file");
        }
        Assert.That((pool.FileCount, pool.OpenHandleCount), Is.EqualTo((0, 0)));
    }
}
