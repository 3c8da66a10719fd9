using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 31, "FEmulator routes into archives inside archives": an FEmulator route names an archive stored in a game CPK by the
/// entry's whole path from the CPK's root (Persona Essentials' rule), and the archive is emulated inside the entry. Every served
/// CPK is re-read by <see cref="CpkIndependentReader"/>, the archives inside by the PAK, AWB, ACB and SPD independent readers.
/// </summary>
public sealed class FefCpkRouteTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private static readonly byte[] Bf = TestData.Random(1, 700), Other = TestData.Random(2, 300), Font = TestData.Random(3, 900);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("fef-cpk-routes");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[] Pak(params (string Name, byte[] Data)[] entries) => PakTestWriter.Write(V2, entries);

    private void EnCpk(params CpkTestWriter.NamedEntry[] more) =>
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FIELD/PACK", "FD007_003.ARC", Pak(("f007.bf", Bf), ("other.bin", Other))), new("FONT", "FONT0.FNT", Font), .. more]));

    [Test]
    public void APakRoute_NamesACpkEntryByItsWholePath_LetterCaseAside_TheFileIsReplacedInsideTheEntry()
    {
        EnCpk();
        var bf = _dir.Write("mod/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", TestData.Random(4, 1234));

        var plan = Resolve("mod");
        Assert.That(plan.Warnings, Is.Empty);
        var nested = plan.Archives.Single().Nested.Single();
        Assert.That((nested.Entry.Name, nested.Route.RelativePath), Is.EqualTo(("FIELD/PACK/FD007_003.ARC", "CPK/EN.CPK/FIELD/PACK/FD007_003.ARC")));
        Assert.That(nested.Route.Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/PAK/field/pack/fd007_003.arc"));

        var cpk = ReadCpk("CPK/EN.CPK", "mod");
        Assert.That(cpk.Select(e => e.Path), Is.EqualTo(new[] { "FIELD/PACK/FD007_003.ARC", "FONT/FONT0.FNT" }));
        Assert.That(cpk[1].Bytes, Is.EqualTo(Font));
        Assert.That(ReadPak(cpk[0].Bytes), Is.EqualTo(new[] { ("f007.bf", File.ReadAllBytes(bf)), ("other.bin", Other) }));
    }

    [Test]
    public void APakEntryStoredCompressed_IsDecodedOnce_AndServedEmulated_Uncompressed()
    {
        var text = new byte[4000]; // compressible, so CRI's packer rule stores it CRILAYLA
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FIELD", "F.ARC", Pak(("a.bf", text), ("b.bf", Other)), Compress: true)]));
        var a = _dir.Write("mod/FEmulator/PAK/field/f.arc/a.bf", TestData.Random(21, 64));
        var stored = CpkIndependentReader.Read(_dir["game/CPK/EN.CPK"]).Entries.Single();
        Assert.That(stored.FileSize, Is.LessThan(stored.ExtractSize), "the original stores it compressed");

        var cpk = CpkIndependentReader.Read(Serve("CPK/EN.CPK", "mod"));
        Assert.That(cpk.Entries.Single().FileSize, Is.EqualTo(cpk.Entries.Single().ExtractSize), "stored uncompressed");
        Assert.That(ReadPak(ReadCpk("CPK/EN.CPK", "mod").Single().Bytes), Is.EqualTo(new[] { ("a.bf", File.ReadAllBytes(a)), ("b.bf", Other) }));
    }

    [Test]
    public void OnePathInTwoCpks_BothServeOneArchive_BuiltFromTheLanguageCpksOriginal_AsEssentialsBindsIt()
    {
        EnCpk();
        var baseOther = TestData.Random(5, 222);
        _dir.Write("game/CPK/BASE.CPK", CpkTestWriter.WriteNamed([new("FIELD/PACK", "FD007_003.ARC", Pak(("f007.bf", TestData.Random(6, 50)), ("base.bin", baseOther)))]));
        var bf = _dir.Write("mod/FEmulator/PAK/FIELD/PACK/FD007_003.ARC/f007.bf", TestData.Random(7, 400));

        var expected = new[] { ("f007.bf", File.ReadAllBytes(bf)), ("other.bin", Other) };
        Assert.That(ReadPak(ReadCpk("CPK/EN.CPK", "mod")[0].Bytes), Is.EqualTo(expected));
        Assert.That(ReadPak(ReadCpk("CPK/BASE.CPK", "mod").Single().Bytes), Is.EqualTo(expected));
    }

    [TestCase("es", "ES.CPK")]
    [TestCase("ja", "JP.CPK")]
    [TestCase("en", "EN.CPK")]
    public void OnePathInSeveralLanguageCpks_IsBuiltFromTheGameLanguagesCpk_AsEssentialsOrdersThem(string language, string expectedCpk)
    {
        var copies = new Dictionary<string, byte[]>();
        foreach (var (cpk, seed) in new[] { ("BASE.CPK", 30), ("EN.CPK", 31), ("ES.CPK", 32), ("JP.CPK", 33) })
        {
            copies[cpk] = TestData.Random(seed, 120 + seed);
            _dir.Write($"game/CPK/{cpk}", CpkTestWriter.WriteNamed([new("FIELD/PACK", "FD007_003.ARC", Pak(("f007.bf", Bf), ("own.bin", copies[cpk])))]));
        }
        var bf = _dir.Write("mod/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", TestData.Random(34, 77));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]) { Language = new LanguageChoice(language, "test") });
        foreach (var cpk in copies.Keys)
        {
            using var file = game.OpenFile($"CPK/{cpk}");
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            var path = _dir.Write($"served-{language}-{cpk}", bytes);
            Assert.That(ReadPak(Content(path, CpkIndependentReader.Read(path).Entries.Single())),
                Is.EqualTo(new[] { ("f007.bf", File.ReadAllBytes(bf)), ("own.bin", copies[expectedCpk]) }), cpk);
        }
    }

    [Test]
    public void OnePathInTwoCpksOfEqualRank_IsBuiltFromTheFirstInOrdinalOrder_ADeclaredSliceIncluded()
    {
        // Neither CPK is a language or base CPK. The slice is listed after the game's files, but "CPK/A.BIN/MOVIE.CPK" sorts
        // before "CPK/Z.CPK", so its original is the one both serve.
        byte[] fromZ = TestData.Random(40, 90), fromSlice = TestData.Random(41, 95);
        _dir.Write("game/CPK/Z.CPK", CpkTestWriter.WriteNamed([new("FIELD", "F.ARC", Pak(("f.bf", Bf), ("own.bin", fromZ)))]));
        var inner = CpkTestWriter.WriteNamed([new("FIELD", "F.ARC", Pak(("f.bf", Bf), ("own.bin", fromSlice)))]);
        var pack = _dir.Write("game/CPK/A.BIN", [.. new byte[0x800], .. inner]);
        var bf = _dir.Write("mod/FEmulator/PAK/field/f.arc/f.bf", TestData.Random(42, 60));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])
        {
            ArchiveSlices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
            {
                ["CPK/A.BIN/MOVIE.CPK"] = (ArchiveSource.Slice(pack, 0x800, inner.Length), ArchiveEmu.Core.Formats.Cpk.CpkFormat.Instance),
            },
        });
        var expected = new[] { ("f.bf", File.ReadAllBytes(bf)), ("own.bin", fromSlice) };
        foreach (var route in new[] { "CPK/Z.CPK", "CPK/A.BIN/MOVIE.CPK" })
        {
            using var file = game.OpenFile(route);
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            var path = _dir.Write($"served-{Guid.NewGuid():N}.cpk", bytes);
            Assert.That(ReadPak(Content(path, CpkIndependentReader.Read(path).Entries.Single())), Is.EqualTo(expected), route);
        }
    }

    [Test]
    public void AnSpdInTwoCpks_BothServeOneSpd_BuiltFromTheLanguageCpksOriginal_AsEssentialsBindsIt()
    {
        // BASE.CPK's SPD has one texture only: were each CPK's SPD built from its own original, BASE's would have two.
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT/CHAT", "CHAT.SPD", SpdTests.Original())]));
        _dir.Write("game/CPK/BASE.CPK", CpkTestWriter.WriteNamed([new("FONT/CHAT", "CHAT.SPD",
            SpdTestWriter.Write([new(0, SpdTests.Dds(43), "base")], [new(0, 0, 0, 0, 4, 4)]))]));
        var dds = SpdTests.Dds(44);
        _dir.Write("mod/FEmulator/SPD/font/chat/chat.spd/tex_1.dds", dds);

        AssertTexture1Replaced(ReadCpk("CPK/EN.CPK", "mod").Single().Bytes, dds);
        AssertTexture1Replaced(ReadCpk("CPK/BASE.CPK", "mod").Single().Bytes, dds);
    }

    [Test]
    public void AnAwbRoute_NamesACpkEntry_ByItsPath_ThenByItsName_AndTheAcbBesideItFollows()
    {
        var entries = AcbTests.Entries(4);
        var awb = AwbTestWriter.Write(entries);
        var acb = AcbTestWriter.Write(new(StreamAwb: awb));
        _dir.Write("game/CPK/SOUND.CPK", CpkTestWriter.WriteNamed([new("SOUND/BGM", "BGM_42.ACB", acb), new("SOUND/BGM", "BGM_42.AWB", awb)]));
        var byPath = _dir.Write("mod/FEmulator/AWB/sound/bgm/bgm_42.awb/2_theme.hca", TestData.Random(8, 7000));
        var byName = _dir.Write("mod/FEmulator/AWB/BGM_42.AWB/0.hca", TestData.Random(9, 900));

        Assert.That(Resolve("mod").Warnings, Is.Empty);
        var cpkPath = Serve("CPK/SOUND.CPK", "mod");
        var cpk = CpkIndependentReader.Read(cpkPath);
        var emulatedAwb = Content(cpkPath, cpk.Entries[1]);
        (entries[0], entries[2]) = (File.ReadAllBytes(byName), File.ReadAllBytes(byPath));
        Assert.That(AwbIndependentReader.Read(_dir.Write("out.awb", emulatedAwb)).Entries.Select(e => e.Sha256), Is.EqualTo(entries.Select(e => Sha(e!))));
        AcbFollowCheck.AssertFollows(_dir.Write("original.acb", acb), _dir.Write("out.acb", Content(cpkPath, cpk.Entries[0])), emulatedAwb, _dir);
    }

    [Test]
    public void AnAfsRoute_NamesACpkEntry_EachCpkHoldingItIsChangedFromItsOwnOriginal()
    {
        byte[][] en = [TestData.Random(16, 100), TestData.Random(17, 200)], jp = [TestData.Random(18, 300), TestData.Random(19, 400)];
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("SOUND", "VOICE.AFS", AfsTestWriter.Write(en))]));
        _dir.Write("game/CPK/JP.CPK", CpkTestWriter.WriteNamed([new("SOUND", "VOICE.AFS", AfsTestWriter.Write(jp))]));
        var voice = _dir.Write("mod/FEmulator/AFS/sound/voice.afs/1_line.adx", TestData.Random(20, 500));

        foreach (var (cpk, original) in new[] { ("CPK/EN.CPK", en), ("CPK/JP.CPK", jp) })
        {
            var afs = _dir.Write($"out/{Path.GetFileName(cpk)}.afs", ReadCpk(cpk, "mod").Single().Bytes);
            Assert.That(AfsIndependentReader.Read(afs).Select(e => e.Sha256), Is.EqualTo(new[] { Sha(original[0]), Sha(File.ReadAllBytes(voice)) }), cpk);
        }
    }

    [TestCase("voice.afs")]
    [TestCase("oice.afs")]
    [TestCase("ound/voice.afs")]
    public void AnAfsRoute_NamesACpkEntry_ByTheEndOfItsPath_OnTheString_AsFefComparesAPath(string route)
    {
        byte[][] original = [TestData.Random(22, 100), TestData.Random(23, 200)];
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("SOUND", "VOICE.AFS", AfsTestWriter.Write(original))]));
        var voice = _dir.Write($"mod/FEmulator/AFS/{route}/1_line.adx", TestData.Random(24, 500));

        Assert.That(Resolve("mod").Warnings, Is.Empty);
        var afs = _dir.Write("out/voice.afs", ReadCpk("CPK/EN.CPK", "mod").Single().Bytes);
        Assert.That(AfsIndependentReader.Read(afs).Select(e => e.Sha256), Is.EqualTo(new[] { Sha(original[0]), Sha(File.ReadAllBytes(voice)) }));
    }

    [Test]
    public void AnAfsRoute_EndingInsideAFolderName_MatchesNoCpkEntry()
    {
        // "nd/voice.afs" ends "SOUND/VOICE.AFS"; "x/voice.afs" does not, though the entry's file name is the route's.
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("SOUND", "VOICE.AFS", AfsTestWriter.Write([Other]))]));
        _dir.Write("mod/FEmulator/AFS/x/voice.afs/0.adx", TestData.Random(25, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/AFS/x/voice.afs) matches no AFS file"));
    }

    [Test]
    public void AnSpdRoute_NamesACpkEntry_ItsTexturesAreAdded()
    {
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FONT/CHAT", "CHAT.SPD", SpdTests.Original())]));
        var dds = SpdTests.Dds(40);
        _dir.Write("mod/FEmulator/SPD/font/chat/chat.spd/tex_1.dds", dds);

        AssertTexture1Replaced(ReadCpk("CPK/EN.CPK", "mod").Single().Bytes, dds);
    }

    [Test]
    public void AnSpdInAPakInACpk_FefsDummyFile_EmulatesTheSpdFromTheSpriteFolder()
    {
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("FIELD", "SMAP.ARC", Pak(("smap/i_mini_map01.spd", SpdTests.Original()), ("x.bin", Other)))]));
        _dir.Write("mod/FEmulator/PAK/field/smap.arc/smap/i_mini_map01.spd", []);
        var dds = SpdTests.Dds(41);
        _dir.Write("mod/FEmulator/SPD/field/smap.arc/smap/i_mini_map01.spd/tex_1.dds", dds);

        var plan = Resolve("mod");
        Assert.That(plan.Warnings, Is.Empty);
        var members = ReadPak(ReadCpk("CPK/EN.CPK", "mod").Single().Bytes);
        Assert.That(members.Select(m => m.Name), Is.EqualTo(new[] { "smap/i_mini_map01.spd", "x.bin" }));
        Assert.That(members[1].Bytes, Is.EqualTo(Other));
        AssertTexture1Replaced(members[0].Bytes, dds);
    }

    [Test]
    public void APakInAPakInACpk_IsChangedTwoLevelsDown()
    {
        var a = TestData.Random(10, 200);
        _dir.Write("game/CPK/DATA.CPK", CpkTestWriter.WriteNamed([new("", "init_free.bin", Pak(("init/loading.arc", Pak(("a.tmx", a), ("mini_tv.tmx", Other)))))]));
        var tv = _dir.Write("mod/FEmulator/PAK/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(11, 1000));

        var outer = ReadPak(ReadCpk("CPK/DATA.CPK", "mod").Single().Bytes);
        Assert.That(ReadPak(outer.Single().Bytes), Is.EqualTo(new[] { ("a.tmx", a), ("mini_tv.tmx", File.ReadAllBytes(tv)) }));
    }

    [Test]
    public void ARouteMatchingOnlyTheEndOfACpkEntrysPath_MatchesNothing_AndIsOneWarningNamingCpkEntries()
    {
        EnCpk();
        _dir.Write("mod/FEmulator/PAK/pack/fd007_003.arc/f007.bf", TestData.Random(12, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/PAK/pack/fd007_003.arc)").And.Contain("entry of its CPKs").And.Contain("not used"));
    }

    [Test]
    public void ARouteNamingACpkEntryThatHoldsNoArchiveOfItsType_IsOneWarningSayingWhatTheEntryIs()
    {
        EnCpk();
        _dir.Write("mod/FEmulator/PAK/font/font0.fnt/x.bin", TestData.Random(15, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/PAK/font/font0.fnt)").And.Contain("CPK/EN.CPK holds FONT/FONT0.FNT, but it is no archive"));
    }

    [Test]
    public void ARouteNamingACpkEntryOfAnotherArchiveType_IsOneWarningNamingTheType()
    {
        EnCpk(new CpkTestWriter.NamedEntry("SOUND", "VOICE.AFS", AfsTestWriter.Write([Other])));
        _dir.Write("mod/FEmulator/PAK/sound/voice.afs/x.bin", TestData.Random(26, 10));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.EndWith("(CPK/EN.CPK holds SOUND/VOICE.AFS, but it is an AFS)"));
    }

    [Test]
    public void ARouteNamingACpkEntryThatIsAZip_SaysAZip()
    {
        using (var zip = new System.IO.Compression.ZipArchive(File.Create(_dir["zip.zip"]), System.IO.Compression.ZipArchiveMode.Create))
            zip.CreateEntry("a.bin", System.IO.Compression.CompressionLevel.NoCompression).Open().Dispose();
        EnCpk(new CpkTestWriter.NamedEntry("DATA", "X.ZIP", File.ReadAllBytes(_dir["zip.zip"])));
        _dir.Write("mod/FEmulator/PAK/data/x.zip/a.bin", TestData.Random(27, 10));

        Assert.That(Resolve("mod").Warnings.Single(), Does.EndWith("(CPK/EN.CPK holds DATA/X.ZIP, but it is a ZIP)"));
    }

    [Test]
    public void AModFileNamedAsAWholeCpkEntry_IsOneWarning_SayingWhichFolderReplacesAWholeEntry()
    {
        EnCpk();
        var whole = _dir.Write("mod/FEmulator/PAK/field/pack/fd007_003.arc", Pak(("whole.bin", Other)));

        var plan = Resolve("mod");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings, Is.EqualTo(new[]
        {
            $"mod file {whole} is named like the PAK CPK/EN.CPK/FIELD/PACK/FD007_003.ARC, but FEmulator/PAK/ takes the files inside a folder of the "
            + "archive's name, not a whole archive; it is not used (CRIFsV2Hook/CPK/<any folder>/ replaces a whole CPK entry)",
        }));
    }

    [Test]
    public void OneMod_ReplacingACpkEntryWhole_AndChangingInsideIt_IsAmbiguous_NamingBothFiles()
    {
        EnCpk();
        _dir.Write("mod/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", TestData.Random(13, 10));
        _dir.Write("mod/CRIFsV2Hook/CPK/EN/FIELD/PACK/FD007_003.ARC", Pak(("whole.bin", Other)));

        var error = Assert.Throws<IOException>(() => Resolve("mod"));
        Assert.That(error!.Message, Does.Contain("f007.bf").And.Contain("FD007_003.ARC").And.Contain("ambiguous"));
    }

    [Test]
    public void OneMod_GivingAnEntryInsideACpkEntry_ByTheHooksFolder_AndByAnFefRoute_TheHooksFolderWins_Silently()
    {
        // Every hook folder ranks above any FEF route, however long, and below Redirector/ (CriFsRoutes.SpecificityOf).
        EnCpk();
        var hook = _dir.Write("mod/CRIFsV2Hook/CPK/EN/FIELD/PACK/FD007_003.ARC/f007.bf", TestData.Random(15, 40));
        _dir.Write("mod/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", TestData.Random(16, 50));

        var plan = Resolve("mod");
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Conflicts, Is.Empty);
        Assert.That(plan.Archives.Single().Nested.Single().Route.Patch.Changes.Single().Rule, Is.EqualTo("CRIFsV2Hook/CPK/EN"));
        Assert.That(ReadPak(ReadCpk("CPK/EN.CPK", "mod")[0].Bytes), Is.EqualTo(new[] { ("f007.bf", File.ReadAllBytes(hook)), ("other.bin", Other) }));
    }

    [Test]
    public void OneMod_GivingAnEntryInsideACpkEntry_FromTwoHookFolders_IsAnErrorNamingTheArchiveByItsRoute()
    {
        EnCpk();
        var one = _dir.Write("mod/CRIFsV2Hook/CPK/one/FIELD/PACK/FD007_003.ARC/f007.bf", TestData.Random(17, 40));
        var two = _dir.Write("mod/CRIFsV2Hook/CPK/two/FIELD/PACK/FD007_003.ARC/f007.bf", TestData.Random(18, 40));

        var error = Assert.Throws<IOException>(() => Resolve("mod"));
        Assert.That(error!.Message, Is.EqualTo($"{two}: targets entry f007.bf of CPK/EN.CPK/FIELD/PACK/FD007_003.ARC, as {one} in the same mod does; "
            + "the mod is ambiguous, keep one of them"));
    }

    [Test]
    public void TwoMods_OneReplacingACpkEntryWhole_TheLaterChangingInsideIt_AreAConflict_TheLaterWins()
    {
        EnCpk();
        _dir.Write("whole/CRIFsV2Hook/CPK/EN/FIELD/PACK/FD007_003.ARC", Pak(("whole.bin", Other)));
        var bf = _dir.Write("fef/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", TestData.Random(14, 10));

        var conflict = Resolve("whole", "fef").Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("CPK/EN.CPK", "FIELD/PACK/FD007_003.ARC", "fef")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "CRIFsV2Hook/CPK/EN", "FEmulator/PAK/field/pack/fd007_003.arc" }));
        Assert.That(ReadPak(ReadCpk("CPK/EN.CPK", "whole", "fef")[0].Bytes), Is.EqualTo(new[] { ("f007.bf", File.ReadAllBytes(bf)), ("other.bin", Other) }));
    }

    private RoutePlan Resolve(params string[] mods) => new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()).Resolve();

    private string Serve(string route, params string[] mods)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], mods.Select(m => _dir[m]).ToArray()));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write($"served-{Guid.NewGuid():N}.cpk", bytes);
    }

    /// <summary>The served CPK's entries, read by the independent reader, each entry's bytes checked against its hash.</summary>
    private List<(string Path, byte[] Bytes)> ReadCpk(string route, params string[] mods)
    {
        var path = Serve(route, mods);
        var result = new List<(string, byte[])>();
        foreach (var entry in CpkIndependentReader.Read(path).Entries)
        {
            var bytes = Content(path, entry);
            Assert.That(Sha(bytes), Is.EqualTo(entry.ContentSha256));
            result.Add((entry.Path, bytes));
        }
        return result;
    }

    private static byte[] Content(string cpk, CpkIndependentReader.Entry entry) => File.ReadAllBytes(cpk).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();

    private List<(string Name, byte[] Bytes)> ReadPak(byte[] pak) => PakIndependentReader.V2Members(pak, _dir);

    private static void AssertTexture1Replaced(byte[] served, byte[] dds)
    {
        var original = SpdIndependentReader.Read(SpdTests.Original(), "original SPD");
        var built = SpdIndependentReader.Read(served, "served SPD");
        Assert.That(built.Textures.Select(t => t.Dds), Is.EqualTo(original.Textures.Select(t => t.Dds).Append(dds)));
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
