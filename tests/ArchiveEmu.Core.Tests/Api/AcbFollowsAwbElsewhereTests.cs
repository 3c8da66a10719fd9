using System.Security.Cryptography;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 21, "ACB + AWB", the two cases beyond the ACB named like the AWB beside it: an AWB stored inside a CPK pulls
/// the ACB entry beside it along (re-read CPK → ACB → AWB with the independent readers), and an ACB named otherwise
/// follows the AWB its StreamAwbHash names (two such ACBs: both follow, one warning).
/// </summary>
public sealed class AcbFollowsAwbElsewhereTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("api-acb-elsewhere");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void AwbInsideACpkChangedByAMod_TheAcbEntryBesideItFollows_InsideTheEmulatedCpk()
    {
        var entries = AcbTests.Entries(4);
        var awb = AwbTestWriter.Write(entries);
        var acb = AcbTestWriter.Write(new(StreamAwb: awb));
        var tex = TestData.Random(310, 3000);
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("battle", "tex.dds", tex), new("sound", "bgm.acb", acb), new("sound", "bgm.awb", awb)]));
        var hca = _dir.Write("mod/data/data.cpk/sound/bgm.awb/2_theme.hca", TestData.Random(311, 7000));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "data/data.cpk" }));
        var cpkPath = _dir.Write("out.cpk", Read(emulator, "data/data.cpk"));

        var cpk = CpkIndependentReader.Read(cpkPath);
        Assert.That(cpk.Entries.Select(e => e.Path), Is.EqualTo(new[] { "battle/tex.dds", "sound/bgm.acb", "sound/bgm.awb" }));
        Assert.That(cpk.Entries[0].ContentSha256, Is.EqualTo(Sha(tex)));
        var emulatedAwb = Content(cpkPath, cpk.Entries[2]);
        entries[2] = File.ReadAllBytes(hca);
        Assert.That(AwbIndependentReader.Read(_dir.Write("out.awb", emulatedAwb)).Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Sha(e!))));
        AcbFollowCheck.AssertFollows(_dir.Write("original.acb", acb), _dir.Write("out.acb", Content(cpkPath, cpk.Entries[1])), emulatedAwb, _dir);
        var acbEntry = emulator.Describe("data/data.cpk").Single(e => e.Name == "sound/bgm.acb");
        Assert.That(acbEntry.Origin, Is.EqualTo("follows data/data.cpk/sound/bgm.awb"));
        var nested = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single().Nested;
        Assert.That(nested.Select(n => (n.Entry.ToString(), n.Route.RelativePath)),
            Is.EqualTo(new[] { ("sound/bgm.awb", "data/data.cpk/sound/bgm.awb"), ("sound/bgm.acb", "data/data.cpk/sound/bgm.acb") }));
    }

    [Test]
    public void AwbInsideACpk_AnAcbEntryModsAlsoChangeInside_BothChangesAndFollows()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var memory = AcbTests.Entries(2);
        var acb = AcbTestWriter.Write(new(MemoryAwb: AwbTestWriter.Write(memory), StreamAwb: awb, HeaderAsTable: false, HashAsTable: false));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", acb), new("sound", "bgm.awb", awb)]));
        _dir.Write("mod/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(326, 900));
        var hca = _dir.Write("mod/data/data.cpk/sound/bgm.acb/1.hca", TestData.Random(327, 700));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        var cpkPath = _dir.Write("out.cpk", Read(emulator, "data/data.cpk"));

        var cpk = CpkIndependentReader.Read(cpkPath);
        var emulatedAwb = Content(cpkPath, cpk.Entries[1]);
        var before = UtfIndependentReader.Read(_dir.Write("original.acb", acb));
        var after = UtfIndependentReader.Read(_dir.Write("out.acb", Content(cpkPath, cpk.Entries[0])));
        AcbFollowCheck.AssertSameExcept(before, after, "StreamAwbAfs2Header", "StreamAwbHash", "AwbFile");
        Assert.That(AcbFollowCheck.Hex(after.Rows[0]["StreamAwbAfs2Header"]), Is.EqualTo(AcbTestWriter.HeaderCopy(emulatedAwb)), "follows the AWB");
        Assert.That(AcbFollowCheck.Hex(after.Rows[0]["StreamAwbHash"]), Is.EqualTo(MD5.HashData(emulatedAwb)));
        memory[1] = File.ReadAllBytes(hca);
        var inMemory = _dir.Write("memory.awb", AcbFollowCheck.Hex(after.Rows[0]["AwbFile"]));
        Assert.That(AwbIndependentReader.Read(inMemory).Entries.Select(e => e.Sha256), Is.EqualTo(memory.Select(e => Sha(e!))), "changed inside");
    }

    [Test]
    public void AnAwbStoredAsAnAfsEntry_ChangedByAMod_IsServed_WithNoFollowerToLookFor()
    {
        // An entry named by its index has no folder beside it to hold an ACB: no follower is looked for.
        var entries = AcbTests.Entries(3);
        var other = TestData.Random(319, 500);
        _dir.Write("game/data/snd.afs", AfsTestWriter.Write([other, AwbTestWriter.Write(entries)]));
        var hca = _dir.Write("mod/data/snd.afs/1/0.hca", TestData.Random(320, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        Assert.That(game.Plan.Warnings, Is.Empty);
        using var served = game.OpenFile("data/snd.afs");
        var afs = AfsIndependentReader.Read(_dir.Write("out.afs", AcbTests.Materialise(served)));
        entries[0] = File.ReadAllBytes(hca);
        Assert.That(afs.Select(e => e.Sha256), Is.EqualTo(new[] { Sha(other), Sha(AwbTestWriter.Write(entries)) }));
    }

    [Test]
    public void AwbInsideACpk_AHookFolderReplacingTheAcbEntryWhole_IsAConflictNamingItsRule()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb))), new("sound", "bgm.awb", awb)]));
        _dir.Write("audio/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(321, 900));
        _dir.Write("cues/CRIFsV2Hook/CPK/any/sound/bgm.acb", TestData.Random(322, 1234));

        var conflict = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["audio"], _dir["cues"]])).Plan.Conflicts.Single();
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "ACB follows data/data.cpk/sound/bgm.awb", "CRIFsV2Hook/CPK/any" }));
    }

    [Test]
    public void AwbInsideACpk_NoAcbEntryNamedLikeIt_TheAcbEntryThatNamesItFollows()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var cues = AcbTestWriter.Write(new(Name: "stream", StreamAwb: awb));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "cues.acb", cues), new("sound", "stream.awb", awb),
            new("voice", "stream.acb", AcbTestWriter.Write(new(Name: "stream", StreamAwb: awb)))])); // another folder: not a sibling
        _dir.Write("mod/data/data.cpk/sound/stream.awb/0.hca", TestData.Random(318, 900));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        var cpkPath = _dir.Write("out.cpk", Read(emulator, "data/data.cpk"));

        var cpk = CpkIndependentReader.Read(cpkPath);
        Assert.That(emulator.Describe("data/data.cpk").Select(e => (e.Name, e.Origin)), Is.EqualTo(new (string?, string)[]
            { ("sound/cues.acb", "follows data/data.cpk/sound/stream.awb"), ("sound/stream.awb", "nested (mod)"), ("voice/stream.acb", "original") }));
        AcbFollowCheck.AssertFollows(_dir.Write("cues.acb", cues), _dir.Write("out.acb", Content(cpkPath, cpk.Entries[0])), Content(cpkPath, cpk.Entries[1]), _dir);
    }

    [Test]
    public void AwbInsideACpk_AnAcbEntryStoredCompressed_IsOneWarning_AndTheAwbIsStillServed()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var acb = AcbTestWriter.Write(new(StreamAwb: awb, Cues: 40)); // big enough for CRILAYLA to pay
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", acb, Compress: true), new("sound", "bgm.awb", awb)]));
        _dir.Write("mod/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(312, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings, Is.EqualTo(new[] { "data/data.cpk/sound/bgm.acb: does not follow data/data.cpk/sound/bgm.awb: "
            + "it is stored compressed in data/data.cpk; the AWB is served emulated, the ACB as it is" }));
        Assert.That(game.Plan.Archives.Single().Nested.Select(n => n.Entry.ToString()), Is.EqualTo(new[] { "sound/bgm.awb" }));
    }

    [Test]
    public void AwbInsideACpk_AnAcbEntryThatDoesNotParse_IsOneWarningNamingIt_AndTheAwbIsStillServed()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var acb = AcbTestWriter.Write(new(StreamAwb: awb));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", acb.AsSpan(0, acb.Length / 2).ToArray()), new("sound", "bgm.awb", awb)]));
        _dir.Write("mod/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(325, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings.Single(), Does.StartWith("data/data.cpk/sound/bgm.acb: does not follow data/data.cpk/sound/bgm.awb: ")
            .And.EndWith("; the AWB is served emulated, the ACB as it is"));
        Assert.That(game.Plan.Archives.Single().Nested.Select(n => n.Entry.ToString()), Is.EqualTo(new[] { "sound/bgm.awb" }));
    }

    [TestCase(true, "it is stored compressed in data/pack.zip")]
    [TestCase(false, "it is stored compressed (ZIP method 12, which ArchiveEmu cannot decode)")]
    public void AwbInsideAZip_AnAcbEntryNotStoredAsItIs_IsOneWarningSayingHow(bool deflated, string how)
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var zip = _dir["game/data/pack.zip"];
        Directory.CreateDirectory(Path.GetDirectoryName(zip)!);
        DotNetArchiveWriters.WriteZip(zip, ("sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb, Cues: 40)), deflated), ("sound/bgm.awb", awb, false));
        if (!deflated)
        {
            var bytes = File.ReadAllBytes(zip);
            bytes[bytes.AsSpan().IndexOf("PK\u0001\u0002"u8) + 10] = 12; // the ACB's central record (the first): bzip2
            File.WriteAllBytes(zip, bytes);
        }
        _dir.Write("mod/data/pack.zip/sound/bgm.awb/0.hca", TestData.Random(328, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings, Is.EqualTo(new[] { $"data/pack.zip/sound/bgm.acb: does not follow data/pack.zip/sound/bgm.awb: {how}; "
            + "the AWB is served emulated, the ACB as it is" }));
    }

    [Test]
    public void AwbInsideACpk_AModReplacingTheAcbEntryWhole_WinsOverFollowing_AndTheConflictIsReported()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb))), new("sound", "bgm.awb", awb)]));
        _dir.Write("audio/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(316, 900));
        var whole = _dir.Write("cues/data/data.cpk/sound/bgm.acb", TestData.Random(317, 1234));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["audio"], _dir["cues"]]));

        var conflict = game.Plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/data.cpk", (string?)"sound/bgm.acb", "cues")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "ACB follows data/data.cpk/sound/bgm.awb", "mirror" }));
        using var served = game.OpenFile("data/data.cpk");
        var cpkPath = _dir.Write("out.cpk", AcbTests.Materialise(served));
        Assert.That(CpkIndependentReader.Read(cpkPath).Entries.Single(e => e.Path == "sound/bgm.acb").ContentSha256, Is.EqualTo(Sha(File.ReadAllBytes(whole))));
    }

    [Test]
    public void AwbInACpkInsideACpk_AModReplacingTheAcbWhole_IsAConflictOfTheGameFile()
    {
        // The conflict is found two levels down, where the ACB entry would follow; the plan reports it all the same.
        var awb = AwbTestWriter.Write(AcbTests.Entries(3));
        var inner = CpkTestWriter.WriteNamed([new("", "bgm.acb", AcbTestWriter.Write(new(StreamAwb: awb))), new("", "bgm.awb", awb)]);
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "pack.cpk", inner)]));
        _dir.Write("audio/data/data.cpk/sound/pack.cpk/bgm.awb/0.hca", TestData.Random(323, 900));
        _dir.Write("cues/data/data.cpk/sound/pack.cpk/bgm.acb", TestData.Random(324, 1234));

        var conflict = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["audio"], _dir["cues"]])).Plan.Conflicts.Single();

        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/data.cpk/sound/pack.cpk", (string?)"bgm.acb", "cues")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "ACB follows data/data.cpk/sound/pack.cpk/bgm.awb", "mirror" }));
    }

    [Test]
    public void NoAcbNamedLikeTheAwb_TheAcbWhoseStreamAwbHashNamesIt_Follows()
    {
        var awb = _dir.Write("game/sound/stream_01.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        var cues = _dir.Write("game/sound/cues.acb", AcbTestWriter.Write(new(Name: "stream_01", StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("game/sound/other.acb", AcbTestWriter.Write(new(Name: "other", StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("mod/sound/stream_01.awb/1.hca", TestData.Random(313, 2000));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);

        Assert.That(emulator.Routes, Is.EqualTo(new[] { "sound/cues.acb", "sound/stream_01.awb" }));
        AcbFollowCheck.AssertFollows(cues, _dir.Write("out.acb", Read(emulator, "sound/cues.acb")), Read(emulator, "sound/stream_01.awb"), _dir);
    }

    [Test]
    public void AnAcbNamedLikeTheAwb_IsTheOneThatFollows_EvenWhenAnotherNamesIt()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("game/sound/menu.acb", AcbTestWriter.Write(new(Name: "bgm", StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("mod/sound/bgm.awb/0.hca", TestData.Random(314, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm.acb", "sound/bgm.awb" }));
        Assert.That(game.Plan.Warnings, Is.Empty);
    }

    [Test]
    public void TwoAcbsNameOneAwb_BothFollow_WithOneWarningNamingThem()
    {
        var awb = _dir.Write("game/sound/voice.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        var jp = _dir.Write("game/sound/voice_jp.acb", AcbTestWriter.Write(new(Name: "voice", StreamAwb: File.ReadAllBytes(awb))));
        var en = _dir.Write("game/sound/voice_en.acb", AcbTestWriter.Write(new(Name: "VOICE", StreamAwb: File.ReadAllBytes(awb), HeaderAsTable: false)));
        _dir.Write("mod/sound/voice.awb/2.hca", TestData.Random(315, 900));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings, Is.EqualTo(new[] { "sound/voice.awb: 2 ACBs name it in their StreamAwbHash (sound/voice_en.acb, sound/voice_jp.acb); each follows it" }));
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "sound/voice.awb", "sound/voice_en.acb", "sound/voice_jp.acb" }));
        var emulatedAwb = Read(emulator, "sound/voice.awb");
        AcbFollowCheck.AssertFollows(jp, _dir.Write("jp.acb", Read(emulator, "sound/voice_jp.acb")), emulatedAwb, _dir);
        var enAfter = UtfIndependentReader.Read(_dir.Write("en.acb", Read(emulator, "sound/voice_en.acb")));
        Assert.That(AcbFollowCheck.Hex(enAfter.Rows[0]["StreamAwbAfs2Header"]), Is.EqualTo(AcbTestWriter.HeaderCopy(emulatedAwb)), "the raw header copy");
        AcbFollowCheck.AssertSameExcept(UtfIndependentReader.Read(en), enAfter, "StreamAwbAfs2Header", "StreamAwbHash");
    }

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var file = emulator.Open(route);
        return AcbTests.Materialise(file);
    }

    private static byte[] Content(string cpkPath, CpkIndependentReader.Entry entry)
    {
        Assert.That(entry.Compressed, Is.False, $"{entry.Path} is stored uncompressed");
        return File.ReadAllBytes(cpkPath).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();
    }

    private static string Sha(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes));
}
