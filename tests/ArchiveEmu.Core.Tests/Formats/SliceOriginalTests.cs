using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Tests.MergedCache;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// An archive stored inside another file (an AWB in a CPK, a PAK in a PAK) is read and emulated in place, as a
/// slice: for every format, the slice gives exactly the bytes the same archive gives as a file of its own.
/// </summary>
public sealed class SliceOriginalTests
{
    [TestCaseSource(typeof(CacheTestGame), nameof(CacheTestGame.Archives))]
    public void ArchiveInsideAnotherFile_EmulatesLikeTheStandaloneFile(string relative)
    {
        using var game = new CacheTestGame();
        var route = game.Game().Plan.FindArchive(relative)!;
        var bytes = File.ReadAllBytes(route.GamePath);
        using var dir = new TempDirectory("slice");
        byte[] before = TestData.Random(1, 4096 + 13), after = TestData.Random(2, 1000);
        var container = dir.Write("container.bin", [.. before, .. after.AsSpan(0, 7), .. bytes, .. after]);
        long offset = before.Length + 7;

        var slice = ArchiveSource.Slice(container, offset, bytes.Length);
        Assert.That(ArchiveFormats.Detect(slice), Is.SameAs(route.Format));
        using var standalone = route.Format.Build(route.Format.ReadIndex(route.GamePath), route.Patch);
        using var inPlace = route.Format.Build(route.Format.ReadIndex(slice), route.Patch);

        Assert.That(CacheTestGame.ReadAll(inPlace.File), Is.EqualTo(CacheTestGame.ReadAll(standalone.File)));
        Assert.That(inPlace.Entries.Select(e => (e.Name, e.Size, e.State)), Is.EqualTo(standalone.Entries.Select(e => (e.Name, e.Size, e.State))));
        Assert.That(inPlace.File.Segments.ToArray().Any(s => s.Source.Describe().Contains("container.bin", StringComparison.Ordinal)), Is.True,
            "unchanged entries are slices of the container, not copies");
        using var unchanged = route.Format.Build(route.Format.ReadIndex(slice), ArchivePatch.Empty);
        Assert.That(CacheTestGame.ReadAll(unchanged.File), Is.EqualTo(bytes), "no mod: the inner archive's own bytes");
    }

    [Test]
    public void CorruptInnerArchive_ErrorNamesTheContainerAndTheSlice()
    {
        using var dir = new TempDirectory("slice-bad");
        var afs = AfsTestWriter.Write([TestData.Random(3, 3000), TestData.Random(4, 100)]);
        afs[4] = 0xFF; afs[5] = 0xFF; // entry count far past the slice
        var container = dir.Write("c.bin", [.. new byte[100], .. afs, .. new byte[5000]]);
        Assert.That(() => Core.Formats.Afs.AfsFormat.Instance.ReadIndex(ArchiveSource.Slice(container, 100, afs.Length)),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.StartsWith($"{container}[0x64+0x{afs.Length:X}]: "));
        Assert.That(() => ArchiveSource.Slice(container, 100, 1 << 20),
            Throws.InstanceOf<IOException>().With.Message.Contains("outside the"));
    }
}
