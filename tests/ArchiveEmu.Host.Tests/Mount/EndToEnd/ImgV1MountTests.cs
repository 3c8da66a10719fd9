using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 22, IMG v1, through a real mount: a mod replaces <c>infernus.txd</c> in <c>models/gta3.img</c>, and both files of the
/// pair are served emulated — the data file and the rebuilt <c>models/gta3.dir</c> — and re-read together by
/// ImgV1IndependentReader, compared with the entries the test wrote.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class ImgV1MountTests(string fuse) : SampleGameMountFixture(fuse)
{
    private const string Img = "models/gta3.img", Dir = "models/gta3.dir";
    private List<(string Name, byte[] Data)> _expected = null!;

    private protected override void Prepare(SampleGame game)
    {
        _expected = [("e0.dff", TestData.Random(800, 3000)), ("infernus.txd", TestData.Random(801, 2500)), ("e2.col", TestData.Random(802, 100))];
        var (img, dir) = ImgV1TestWriter.Write(_expected);
        game.Write("game/" + Img, img);
        game.Write("game/" + Dir, dir);
        game.Write("mods/hd-textures/" + Img + "/infernus.txd", TestData.Random(810, 7000));
        _expected[1] = ("infernus.txd", TestData.Random(810, 7000));
    }

    [Test]
    public void BothFiles_ReadThroughTheMount_AreTheEmulatedPair()
    {
        var img = File.ReadAllBytes(_game.Mounted(Img));
        var dir = File.ReadAllBytes(_game.Mounted(Dir));
        Assert.That(new FileInfo(_game.Mounted(Dir)).Length, Is.EqualTo(32 * _expected.Count), "the mount reports the rebuilt directory's size");

        var read = ImgV1IndependentReader.Read(img, dir);
        Assert.That(read.Select(e => e.Name), Is.EqualTo(_expected.Select(e => e.Name)));
        Assert.That(read.Select(e => e.Bytes), Is.EqualTo(_expected.Select(e => (byte[])[.. e.Data, .. new byte[(2048 - e.Data.Length % 2048) % 2048]])));
    }
}
