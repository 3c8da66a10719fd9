using ArchiveEmu.Core.Interop;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Interop;

/// <summary>Issue 49: the one real-path helper, which the CLI, the host, doctor and the Reloaded-II search share.</summary>
public sealed class RealPathsTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders()
    {
        LinuxOnly.RequireSymlinks();
        _dir = new TempDirectory("realpaths");
        Directory.CreateDirectory(_dir["disk/Game/data"]);
        Directory.CreateSymbolicLink(_dir["link"], _dir["disk/Game"]);
    }

    [TearDown]
    public void Delete() => _dir?.Dispose();

    [Test]
    public void Of_ResolvesLinks_AsFarAsThePathExists_NoSeparatorAtTheEnd()
    {
        var real = RealPaths.Of(_dir["disk/Game"]);
        Assert.That(RealPaths.Of(_dir["link"] + "/"), Is.EqualTo(real));
        Assert.That(RealPaths.Of(_dir["link/data/not-yet/x.bin"]), Is.EqualTo(Path.Combine(real, "data", "not-yet", "x.bin")));
        Assert.That(RealPaths.Location(_dir["link/data"]), Is.EqualTo(Path.Combine(real, "data")));
    }

    [Test]
    public void IsInside_ResolvesTheFolder_NotThePath()
    {
        var real = RealPaths.Of(_dir["disk/Game"]);
        Assert.That(RealPaths.IsInside(_dir["link"], Path.Combine(real, "data")), Is.True);
        Assert.That(RealPaths.IsInside(_dir["link"], real), Is.True, "the folder itself");
        Assert.That(RealPaths.IsInside(_dir["link"], _dir["link/data"]), Is.False, "the path as written does not start with the real folder");
        Assert.That(RealPaths.IsInside(_dir["link"], real + "2"), Is.False, "a sibling whose name starts the same");
        Assert.That(RealPaths.IsInside(_dir["link"], Path.Combine(real, "DATA").ToUpperInvariant()), Is.False);
        Assert.That(RealPaths.IsInside(_dir["link"], Path.Combine(real.ToUpperInvariant(), "DATA"), ignoreCase: true), Is.True, "a Wine drive compares as Windows does");
    }

    [Test]
    public void IsUnder_ComparesAsWritten()
    {
        Assert.That(RealPaths.IsUnder(_dir["link"], _dir["link/data"]), Is.True);
        Assert.That(RealPaths.IsUnder(_dir["link"] + "/", _dir["link"]), Is.True);
        Assert.That(RealPaths.IsUnder(_dir["link"], RealPaths.Of(_dir["link/data"])), Is.False);
        Assert.That(RealPaths.IsUnder("/", _dir["link"]), Is.True, "everything is under the root");
    }
}
