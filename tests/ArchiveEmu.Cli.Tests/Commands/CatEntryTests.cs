using System.Text;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary><c>cat ARCHIVE/ENTRY</c>: one entry of an emulated archive at any depth, checked against the mods' files and independent readers.</summary>
public sealed class CatEntryTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-cat-entry");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private byte[] CatPersona(string path, params string[] more)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}"];
        string[] mods = [.. PersonaSample.Mods.SelectMany(m => new[] { "--mod", m })];
        var result = CliRun.Run(["cat", "--game", PersonaSample.Game, .. mods, "--no-cache", path, "-o", output, .. more]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return File.ReadAllBytes(output);
    }

    [Test]
    public void Cat_AnEntryOfAnEmulatedCpk_IsTheWinningModsFile() =>
        Assert.That(CatPersona("CPK/EN.CPK/FONT/FONT0.FNT"), Is.EqualTo(PersonaSample.ExpectedFont("en")));

    [Test]
    public void Cat_AMergedTable_IsBothModsEditsOnTheOriginal() =>
        Assert.That(CatPersona("CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL"),
            Is.EqualTo(PersonaSample.ExpectedUnitTable(PersonaSample.Entries(Path.Combine(PersonaSample.Game, "CPK/EN.CPK"))["BATTLE/TABLE/UNIT.TBL"])));

    [Test]
    public void Cat_AnEntryAfterABuildFilledTheCache_IsStillTheModsFile()
    {
        string[] mods = [.. PersonaSample.Mods.SelectMany(m => new[] { "--mod", m })];
        var build = CliRun.Run(["build", "--game", PersonaSample.Game, .. mods, "--cache", _dir["cache"]]);
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        var output = _dir["font"];
        var cat = CliRun.Run(["cat", "--game", PersonaSample.Game, .. mods, "--cache", _dir["cache"], "CPK/EN.CPK/FONT/FONT0.FNT", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(PersonaSample.ExpectedFont("en")));
    }

    [Test]
    public void Cat_AnEntryNamedInAnotherLetterCase_IsFoundIgnoringCase() =>
        Assert.That(CatPersona("CPK/EN.CPK/font/font0.fnt"), Is.EqualTo(PersonaSample.ExpectedFont("en")));

    [Test]
    public void Cat_AnEntryOfAPakInsideTheCpk_IsTheModsReplacement() =>
        Assert.That(CatPersona("CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/f007.bmd"),
            Is.EqualTo(File.ReadAllBytes(Path.Combine(PersonaSample.Mod("field-edit"), "FEmulator/PAK/field/pack/fd007_003.arc/f007.bmd"))));

    [Test]
    public void Cat_APakInsideTheCpkInAnotherLetterCase_IsFoundAsLsFindsIt() =>
        Assert.That(CatPersona("CPK/EN.CPK/field/pack/fd007_003.arc/F007.BMD"),
            Is.EqualTo(File.ReadAllBytes(Path.Combine(PersonaSample.Mod("field-edit"), "FEmulator/PAK/field/pack/fd007_003.arc/f007.bmd"))));

    [Test]
    public void Cat_AnUntouchedEntryOfAPakInsideTheCpk_IsTheOriginalsBytes()
    {
        var pak = _dir.Write("original.arc", PersonaSample.Entries(Path.Combine(PersonaSample.Game, "CPK/EN.CPK"))["FIELD/PACK/FD007_003.ARC"]);
        var original = PakIndependentReader.Read(pak, "V1").Single(m => m.Name == "f007.bf");
        var served = CatPersona("CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/f007.bf");
        Assert.That((served.Length, AfsIndependentReader.Sha256(served)), Is.EqualTo((original.Size, original.Sha256)));
    }

    [Test]
    public void Cat_AnAfsEntryByIndex_IsTheModsFile()
    {
        var output = _dir["entry"];
        var hd = CliRun.Fixture("mods/hd-textures");
        var result = CliRun.Run("cat", "--game", CliRun.Fixture("game"), "--mod", hd, "data/textures.afs/5", "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(Path.Combine(hd, "data/textures.afs/0005_hero.dds"))));
    }

    [Test]
    public void Cat_AnAfsSlotAModDeleted_IsEmpty()
    {
        var output = _dir["entry"];
        var result = CliRun.Run("cat", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/ui-fix"), "data/textures.afs/1", "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(output), Is.Empty);
    }

    [Test]
    public void Cat_ATextureATxdStoresConvertedFromTheModsDds_IsRefusedInOneLine()
    {
        var result = CliRun.Run("cat", "--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/gta-textures"), "--no-cache",
            "models/gta3.img/infernus.txd/infernus_body.dds", "-o", _dir["out"]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        var lines = result.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => !l.Contains("warning") && !l.Contains("not applied")).ToArray();
        Assert.That(lines, Has.Length.EqualTo(1), result.ToString());
        Assert.That(lines[0], Does.Contain("models/gta3.img/infernus.txd").And.Contain("infernus_body.dds").And.Contain("converted"));
        Assert.That(File.Exists(_dir["out"]), Is.False);
    }

    [Test]
    public void Cat_AnIdOnlyCpkEntryByTheIndexLsPrints_IsThatEntryAfterAModAddedALowerId()
    {
        _dir.Write("game/data/id.cpk", CpkTestWriter.WriteIdOnly([new(8, TestData.Random(2, 200)), new(3, TestData.Random(1, 100))]));
        _dir.Write("mod/data/id.cpk/1.bin", TestData.Random(9, 50));
        byte[] Cat(string index)
        {
            var output = _dir[$"out-{index}"];
            var result = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", $"data/id.cpk/{index}", "-o", output);
            Assert.That(result.ExitCode, Is.Zero, result.ToString());
            return File.ReadAllBytes(output);
        }
        // ls lists them by ID order: the added ID 1, then IDs 3 and 8 as the original holds them.
        var ls = CliRun.Run("ls", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/id.cpk");
        Assert.That(ls.Out, Does.Match(@"\n\s+0\s+50\s+added").And.Match(@"\n\s+1\s+100\s+original").And.Match(@"\n\s+2\s+200\s+original"), ls.ToString());
        Assert.That(Cat("0"), Is.EqualTo(TestData.Random(9, 50)));
        Assert.That(Cat("1"), Is.EqualTo(TestData.Random(1, 100)));
        Assert.That(Cat("2"), Is.EqualTo(TestData.Random(2, 200)));
    }

    [Test]
    public void Cat_AMissingEntry_IsOneLineNamingTheArchiveAndTheEntry()
    {
        string[] mods = [.. PersonaSample.Mods.SelectMany(m => new[] { "--mod", m })];
        var result = CliRun.Run(["cat", "--game", PersonaSample.Game, .. mods, "--no-cache", "CPK/EN.CPK/FONT/FONT9.FNT", "-o", _dir["out"]]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        var lines = result.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries).Where(l => !l.Contains("warning") && !l.Contains("not applied")).ToArray();
        Assert.That(lines, Has.Length.EqualTo(1), result.ToString());
        Assert.That(lines[0], Does.Contain("CPK/EN.CPK").And.Contain("FONT/FONT9.FNT").And.Contain("FONT/FONT0.FNT"));
    }

    [Test]
    public void Cat_ACrilaylaStoredEntry_IsAsStoredAndDecodedWithDecode()
    {
        var text = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("a line the packer compresses well\n", 400)));
        var plain = TestData.Random(7, 300);
        var cpk = _dir.Write("game/data/packed.cpk", CpkTestWriter.WriteNamed(
            [new("TEXT", "story.txt", text, Compress: true), new("", "plain.bin", plain, Compress: true)]));
        Directory.CreateDirectory(_dir["mod"]);
        var entries = CpkIndependentReader.Read(cpk).Entries;
        var story = entries.Single(e => e.Path == "TEXT/story.txt");
        Assert.That(story.Compressed, Is.True, "the sample stores story.txt compressed");
        Assert.That(entries.Single(e => e.Path == "plain.bin").Compressed, Is.False, "random bytes do not compress: stored as is");

        byte[] Cat(string path, params string[] more)
        {
            var output = _dir[$"out-{Guid.NewGuid():N}"];
            var result = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", path, "-o", output, .. more]);
            Assert.That(result.ExitCode, Is.Zero, result.ToString());
            return File.ReadAllBytes(output);
        }
        var stored = Cat("data/packed.cpk/TEXT/story.txt");
        Assert.That((stored.Length, AfsIndependentReader.Sha256(stored)), Is.EqualTo((story.FileSize, story.StoredSha256)), "as stored");
        Assert.That(Cat("data/packed.cpk/TEXT/story.txt", "--decode"), Is.EqualTo(text), "decoded");
        Assert.That(Cat("data/packed.cpk/plain.bin", "--decode"), Is.EqualTo(plain), "--decode leaves an entry stored as is alone");
    }
}
