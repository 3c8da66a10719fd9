using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>Issue 18: an index far past the original's end is warned about, in one wording, wherever the archive is served.</summary>
public sealed class FarIndexWarningTests
{
    private const string Afs = "data/voice.afs";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("far-index");
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write(Enumerable.Range(0, 8).Select(i => (byte[]?)TestData.Random(i, 16)).ToArray()));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    private EmulatedGame Game(Action<string>? warn = null) =>
        EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mods/m"]]) { Warn = warn });

    private ServedArchive Describe(EmulatedGame game) => game.Serve(game.Plan.FindArchive(Afs)!, new ServeRequest { Describe = true });

    [Test]
    public void Of_MoreThan1024EmptySlots_NamesTheEntryAndTheGap()
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 16));
        Assert.That(Describe(Game()).Warnings,
            Is.EqualTo(new[] { "data/voice.afs: entry 2000 (from m) adds 1992 empty slots after the 8 entries of the original; a typo in the index?" }));
    }

    [Test]
    public void Of_FewEmptySlots_ButTheArchiveGrownTenfold_GivesTheSizes()
    {
        _dir.Write("mods/m/data/voice.afs/20.bin", TestData.Random(9, 1 << 20));
        var served = Describe(Game());
        Assert.That(served.Summary!.Size, Is.GreaterThan(10 * served.Summary.OriginalSize));
        Assert.That(served.Warnings, Is.EqualTo(new[] { $"data/voice.afs: entry 20 (from m) adds 12 empty slots after the 8 entries of the original, "
            + $"{served.Summary.OriginalSize} -> {served.Summary.Size} bytes; a typo in the index?" }));
    }

    [TestCase("8.bin")] // the next entry: no gap
    [TestCase("9.bin")] // one empty slot
    [TestCase("1000.bin")] // 992 empty slots, the archive not grown tenfold
    public void Of_AGapWithinTheLimits_IsNull(string entry)
    {
        _dir.Write($"mods/m/data/voice.afs/{entry}", TestData.Random(9, 16));
        var served = Describe(Game());
        Assert.That(served.Summary, Is.Not.Null);
        Assert.That(served.Warnings, Is.Empty);
    }

    [Test]
    public void Warn_GetsItOnce_FromOpenFileAndFromOpenArchive_AndNothingWithoutAWarning()
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 16));
        var said = new List<string>();
        var game = Game(said.Add);
        using (game.OpenFile(Afs))
            Assert.That(said, Has.Count.EqualTo(1));
        using (game.OpenArchive(Afs))
            Assert.That(said, Has.Count.EqualTo(2));
        Assert.That(said.Distinct().Single(), Does.EndWith("a typo in the index?"));

        File.Delete(_dir["mods/m/data/voice.afs/2000.bin"]);
        _dir.Write("mods/m/data/voice.afs/9.bin", TestData.Random(9, 16));
        said.Clear();
        using (Game(said.Add).OpenFile(Afs))
            Assert.That(said, Is.Empty);
    }
}
