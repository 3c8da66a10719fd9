using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// What an FEF layout holds that ArchiveEmu does not use is one warning line each, word for word (docs/DESIGN.md, "Reloaded-II
/// and FEF mods"), and what it does use warns of nothing.
/// </summary>
public sealed class FefWarningTests
{
    private const string NoMatchRule = "FEF matches the end of a game file's path, Persona Essentials a CPK entry's whole path from the CPK's root, "
        + "letter case aside; its files are not used";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("fef-warnings");
        _dir.Write("game/English/Sound.afs", AfsTestWriter.Write([TestData.Random(1, 100), TestData.Random(2, 100)]));
        _dir.Write("game/data/voice.bin", AfsTestWriter.Write([TestData.Random(3, 100), TestData.Random(4, 100)])); // an AFS not named .afs
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void AFileOrAnUnknownFolderInFEmulator_IsOneWarningEach_SayingWhichItIs()
    {
        _dir.Write("a/FEmulator/readme.txt", [1]);
        _dir.Write("a/FEmulator/XYZ/x.bin", [2]);

        Assert.That(Resolve("a").Warnings, Is.EquivalentTo(new[]
        {
            $"{_dir["a/FEmulator/readme.txt"]}: {Reads}; this file is not used",
            $"{_dir["a/FEmulator/XYZ"]}: {Reads}; this folder is not used",
        }));
    }

    [Test]
    public void ScriptAndLanguageFolders_AreNoWarning_TheyAreReportedAsTheirOwn()
    {
        _dir.Write("a/FEmulator/BF/field.bf", [1]);
        _dir.Write("a/FEmulator/L10N/es/Sound.afs/1.adx", [2]);
        _dir.Write("a/FEmulator/AFS/Sound.afs/1.adx", [3]);

        var plan = Resolve("a");
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Archives.Single().RelativePath, Is.EqualTo("English/Sound.afs"));
    }

    [Test]
    public void FilesDirectlyInFEmulatorAfs_NameNoRoute_AndAreOneWarningNamingTheFolder()
    {
        _dir.Write("a/FEmulator/AFS/1.adx", [1]);

        Assert.That(Resolve("a").Warnings, Is.EqualTo(new[]
        {
            $"mod folder {_dir["a/FEmulator/AFS"]} (FEmulator/AFS/) matches no AFS file of the game and no AFS entry of its CPKs: {NoMatchRule}",
        }));
    }

    [Test]
    public void AnAfsRedirectorRoute_NeedsTheAfsExtension_AsFefsAfsEmulatorDoes()
    {
        _dir.Write("a/AfsRedirector/voice.bin/1.adx", [1]);

        var plan = Resolve("a");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings, Is.EqualTo(new[]
        {
            $"mod folder {_dir["a/AfsRedirector/voice.bin"]} (AfsRedirector/voice.bin) matches no AFS file of the game and no AFS entry of its CPKs: {NoMatchRule}",
        }));
    }

    [Test]
    public void AModFileNamedAsAWholeGamePak_IsOneWarning_NotAnEntryWithNoName()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(PakTestLayout.All.First(l => l.Variant == "V2"), [("a.tmx", TestData.Random(5, 50))]));
        var whole = _dir.Write("a/FEmulator/PAK/init_free.bin", TestData.Random(6, 60));

        var plan = Resolve("a");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings, Is.EqualTo(new[]
        {
            $"mod file {whole} is named like the PAK data/init_free.bin, but FEmulator/PAK/ takes the files inside a folder of the archive's name, "
            + "not a whole archive; it is not used (Redirector/ replaces a whole game file)",
        }));
    }

    [Test]
    public void AnFemulatorAfsRoute_NeedsTheDotAfsExtension_NotOnlyItsLetters()
    {
        _dir.Write("game/data/voiceafs", AfsTestWriter.Write([TestData.Random(7, 100)]));
        _dir.Write("a/FEmulator/AFS/voiceafs/0.adx", [1]);

        var plan = Resolve("a");
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.StartWith($"mod folder {_dir["a/FEmulator/AFS/voiceafs"]} (FEmulator/AFS/voiceafs) matches no AFS file"));
    }

    private const string Reads = "ArchiveEmu reads FEmulator/AFS, FEmulator/AWB, FEmulator/PAK, FEmulator/SPD and FEmulator/L10N only (FEmulator/BF and "
        + "BMD are compiled in the game)";

    private RoutePlan Resolve(params string[] mods) => new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()).Resolve();
}
