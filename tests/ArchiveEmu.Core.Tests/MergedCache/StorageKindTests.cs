using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>The storage under a folder, also when the folder is known by an open handle (an in-place mount's game folder).</summary>
public sealed class StorageKindTests
{
    [Test]
    public void AFolderKnownByItsHandle_IsOnTheHandlesStorage_NotProcs()
    {
        LinuxOnly.Require("/proc/self/fd paths (an in-place mount reads the game folder through one)");
        using var temp = new TempDirectory("storage");
        var file = temp.Write("a.bin", [1, 2, 3]);
        using var handle = File.OpenHandle(file);
        var byHandle = StorageKind.Of($"/proc/self/fd/{handle.DangerousGetHandle()}");
        Assert.That(byHandle, Is.EqualTo(StorageKind.Of(temp.Path)));
        Assert.That(byHandle.Device, Is.Not.EqualTo("proc"));
    }
}
