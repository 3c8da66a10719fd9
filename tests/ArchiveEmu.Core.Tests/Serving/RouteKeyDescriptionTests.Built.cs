using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>
/// Route shapes the router does not make today but the key must still describe right: built by hand, so a change to the
/// router cannot leave them undescribed unnoticed.
/// </summary>
public sealed partial class RouteKeyDescriptionTests
{
    [Test]
    public void AVirtualInputsZeroRun_IsDescribedAsZeros_BetweenItsOtherRuns()
    {
        var original = _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500)]));
        var file = _dir.Write("a/part.bin", TestData.Random(30, 100));
        var bytes = TestData.Random(31, 20);
        var virtualFile = new VirtualFileBuilder().AppendFile(file, 10, 50).AppendZeros(7).AppendBytes(bytes).Build();
        var route = new ArchiveRoute("data/tex.afs", original, ArchiveEmu.Core.Formats.Afs.AfsFormat.Instance,
            new ArchivePatch([new EntryChange(EntryKey.ByIndex(0), EntryInput.FromVirtualFile(virtualFile, "built"), "test")]), []);

        Assert.That(Key(route, false, "a"), Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {original}\noriginal {Stat(original)}\n"
            + $"mod 0 {_dir["a"]}\n"
            + $"entry #0 from test: virtual 77 | 50 file {file} @10 {Stat(file)} | 7 zeros | 20 bytes {Xxh3(bytes)}\n")));
    }

    [Test]
    public void AnImgV1RouteDeclaredAsASlice_HasNoCompanion_ItsDirIsBesideTheWholeFileNotTheSlice()
    {
        var container = _dir.Write("game/data/pack.bin", TestData.Random(32, 4096));
        _dir.Write("game/data/pack.dir", TestData.Random(33, 32)); // beside the container: not the slice's index
        var route = new ArchiveRoute("data/pack.bin/inner.img", container, ImgV1Format.Instance, ArchivePatch.Empty, [],
            ArchiveSource.Slice(container, 2048, 2048));

        Assert.That(Key(route, false), Is.EqualTo(HashOf(Header + "format img-v1\n"
            + $"route {container}\nslice 2048+2048\noriginal {Stat(container)}\n")));
    }
}
