using System.Security.Cryptography;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 21, "ACB + AWB", through the library: the game's ACB follows the streamed AWB beside it that a mod changes
/// (header copy and MD5 rebuilt, re-read by the independent @UTF reader), a mod folder named like an ACB changes the AWB
/// it carries inside, a whole replacement of the ACB wins, and an ACB that does not parse is one warning.
/// </summary>
public sealed class AcbFollowsAwbTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("api-acb");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [TestCase("bgm.acb")]
    [TestCase("BGM.Acb")]
    public void StreamedAwbChangedByAMod_TheAcbBesideItIsServedWithTheEmulatedAwbsHeaderAndHash(string acbName)
    {
        var entries = AcbTests.Entries(4);
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(entries));
        var acb = _dir.Write($"game/sound/{acbName}", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        var hca = _dir.Write("mod/sound/bgm.awb/1_theme.hca", TestData.Random(300, 70_000));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { $"sound/{acbName}", "sound/bgm.awb" }));
        var emulatedAwb = Read(emulator, "sound/bgm.awb");
        var built = _dir.Write("out.acb", Read(emulator, $"sound/{acbName}"));

        AcbFollowCheck.AssertFollows(acb, built, emulatedAwb, _dir);
        entries[1] = File.ReadAllBytes(hca);
        Assert.That(AwbIndependentReader.Read(_dir.Write("out.awb", emulatedAwb)).Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Sha(e!))));
    }

    [Test]
    public void StreamedAwbChangedOnlyByAnInputAddedInCode_TheAcbBesideItFollowsToo()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(4)));
        var acb = _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddBytes("sound/bgm.awb", EntryKey.ByIndex(1), TestData.Random(304, 70_000), "loader");
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "sound/bgm.acb", "sound/bgm.awb" }));
        var emulatedAwb = Read(emulator, "sound/bgm.awb");
        var built = _dir.Write("out.acb", Read(emulator, "sound/bgm.acb"));

        AcbFollowCheck.AssertFollows(acb, built, emulatedAwb, _dir);
    }

    [Test]
    public void MemoryAwbInsideTheAcb_AModFolderNamedLikeTheAcb_ChangesItsEntries()
    {
        var entries = AcbTests.Entries(4);
        var acb = _dir.Write("game/sound/se.acb", AcbTestWriter.Write(new(Name: "se", MemoryAwb: AwbTestWriter.Write(entries))));
        var hca = _dir.Write("mod/sound/se.acb/2_step.hca", TestData.Random(301, 5000));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "sound/se.acb" }));
        var built = _dir.Write("out.acb", Read(emulator, "sound/se.acb"));

        var before = UtfIndependentReader.Read(acb);
        var after = UtfIndependentReader.Read(built);
        AcbFollowCheck.AssertSameExcept(before, after, "AwbFile");
        entries[2] = File.ReadAllBytes(hca);
        var inner = AwbIndependentReader.Read(_dir.Write("inner.awb", AcbFollowCheck.Hex(after.Rows[0]["AwbFile"])));
        Assert.That(inner.Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Sha(e!))));
        Assert.That(emulator.Describe("sound/se.acb").Select(e => (e.State, e.Origin)).ElementAt(2), Is.EqualTo((EntryState.Replaced, "mod")));
    }

    [Test]
    public void AModReplacingTheAcbWhole_WinsOverFollowing_AndTheConflictIsReported()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("audio/sound/bgm.awb/0.hca", TestData.Random(302, 900));
        var whole = _dir.Write("cues/sound/bgm.acb", TestData.Random(303, 1234));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["audio"], _dir["cues"]]));
        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm.awb" }));
        var conflict = game.Plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("sound/bgm.acb", (string?)null, "cues")));
        Assert.That(conflict.Mods, Is.EqualTo(new[] { "audio", "cues" }));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "ACB follows sound/bgm.awb", "mirror" }));
        using var served = game.OpenFile("sound/bgm.acb");
        Assert.That(AcbTests.Materialise(served), Is.EqualTo(File.ReadAllBytes(whole)));
    }

    [Test]
    public void AnAcbThatDoesNotParse_IsOneWarningNamingIt_AndTheAwbIsStillServed()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        var acbBytes = AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb)));
        var acb = _dir.Write("game/sound/bgm.acb", acbBytes.AsSpan(0, acbBytes.Length / 2).ToArray()); // truncated
        _dir.Write("mod/sound/bgm.awb/0.hca", TestData.Random(304, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        Assert.That(game.Plan.Warnings, Has.Count.EqualTo(1));
        Assert.That(game.Plan.Warnings[0], Does.StartWith("sound/bgm.acb: does not follow sound/bgm.awb: ").And.Contain(acb));
        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm.awb" }));
        using var served = game.OpenFile("sound/bgm.awb");
        Assert.That(AwbIndependentReader.Read(_dir.Write("out.awb", AcbTests.Materialise(served))).Entries[0].Sha256, Is.EqualTo(Sha(TestData.Random(304, 900))));
    }

    [Test]
    public void TheAcbsCacheKey_ChangesWhenTheAwbsInputChanges()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        var hca = _dir.Write("mod/sound/bgm.awb/0.hca", TestData.Random(305, 900));

        string Version()
        {
            var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
            return game.Server.VersionOf(game.Plan.FindArchive("sound/bgm.acb")!);
        }

        var before = Version();
        Assert.That(Version(), Is.EqualTo(before), "the same files: the same key");
        File.WriteAllBytes(hca, TestData.Random(306, 901));
        Assert.That(Version(), Is.Not.EqualTo(before));
    }

    [Test]
    public void AModFolderNamedLikeAnAcbWithNoInMemoryAwb_IsOneErrorNamingTheAcbAndTheAwbsFolder()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        var acb = _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("mod/sound/bgm.acb/1.hca", TestData.Random(307, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        var error = Assert.Throws<ArchiveFormatException>(() => game.OpenFile("sound/bgm.acb").Dispose())!;
        Assert.That(error.Message, Does.Contain(acb).And.Contain("no in-memory AWB").And.Contain("folder named like the .awb"));
    }

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var file = emulator.Open(route);
        return AcbTests.Materialise(file);
    }

    private static string Sha(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
