using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 48: a "." or empty step in ARCHIVE (<c>./CPK/EN.CPK</c>, <c>CPK//EN.CPK</c>) matched no route, and <c>cat</c> and
/// <c>ls</c> served the game's original with exit 0. A path as typed is the path without them; '..' and the game folder
/// itself are refused with one line.
/// </summary>
public sealed class TypedPathTests
{
    private static readonly string Persona = CliRun.Fixture("persona");
    private static readonly string[] PersonaMods = ["essentials-font", "unit-hp", "unit-strength", "field-edit"];
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-typed-path");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static string[] PersonaGame(params string[] tail) =>
        ["--game", Path.Combine(Persona, "game"), .. PersonaMods.SelectMany(m => new[] { "--mod", Path.Combine(Persona, "mods", m) }), "--no-cache", .. tail];

    private byte[] Cat(string[] gameAndMods)
    {
        var output = _dir[$"{Guid.NewGuid():N}.bin"];
        var result = CliRun.Run(["cat", .. gameAndMods, "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error, Is.Empty);
        return File.ReadAllBytes(output);
    }

    [TestCase("./CPK/EN.CPK", "CPK/EN.CPK")]
    [TestCase("CPK/./EN.CPK", "CPK/EN.CPK")]
    [TestCase("CPK//EN.CPK", "CPK/EN.CPK")]
    [TestCase("CPK/EN.CPK/", "CPK/EN.CPK")]
    [TestCase("./CPK/EN.CPK/FONT/FONT0.FNT", "CPK/EN.CPK/FONT/FONT0.FNT")]
    [TestCase("CPK/EN.CPK/./BATTLE/TABLE/UNIT.TBL", "CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL")]
    [TestCase("CPK\\EN.CPK", "CPK/EN.CPK")]
    public void Cat_APathWithDotOrEmptySteps_GivesTheModdedBytesOfThePathWithout(string typed, string plain)
    {
        var modded = Cat(PersonaGame(plain));
        Assert.That(Cat(PersonaGame(typed)), Is.EqualTo(modded));
        if (plain == "CPK/EN.CPK")
            Assert.That(modded, Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(Persona, "game", plain))), "the mods change it");
    }

    [Test]
    public void Cat_AFileOverrideWithADotStep_IsTheMods()
    {
        string[] Fef(string path) => ["--game", CliRun.Fixture("game"), "--mod", CliRun.Fixture("mods/fef-mod"), "--no-cache", path];
        var modded = Cat(Fef("data/readme.txt"));
        Assert.That(modded, Is.Not.EqualTo(File.ReadAllBytes(CliRun.Fixture("game/data/readme.txt"))), "the mod replaces it");
        Assert.That(Cat(Fef("./data/readme.txt")), Is.EqualTo(modded));
    }

    [Test]
    public void Ls_APathWithDotAndEmptySteps_ListsTheModdedArchive()
    {
        var plain = CliRun.Run(["ls", .. PersonaGame("CPK/EN.CPK")]);
        var typed = CliRun.Run(["ls", .. PersonaGame("./CPK//EN.CPK")]);
        Assert.That(typed.ExitCode, Is.Zero, typed.ToString());
        Assert.That(typed.Out, Is.EqualTo(plain.Out));
        Assert.That(plain.Out, Does.Contain("replaced"));
    }

    [TestCase(".", "archiveemu cat: .: names the game folder itself; give a file in it (such as data/textures.afs)")]
    [TestCase("./", "archiveemu cat: ./: names the game folder itself; give a file in it (such as data/textures.afs)")]
    [TestCase("../game/CPK/EN.CPK", "archiveemu cat: ../game/CPK/EN.CPK: must be a path inside the game folder (no absolute paths, no '..')")]
    [TestCase("CPK/../CPK/EN.CPK", "archiveemu cat: CPK/../CPK/EN.CPK: must be a path inside the game folder (no absolute paths, no '..')")]
    public void Cat_TheGameFolderItselfOrADotDotStep_IsOneLineAndExitOne(string typed, string error)
    {
        var output = _dir["out.bin"];
        var result = CliRun.Run(["cat", .. PersonaGame(typed), "-o", output]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo(error + "\n"));
        Assert.That(File.Exists(output), Is.False);
    }

    [Test]
    public void Cat_AFolder_SaysItIsAFolder()
    {
        var result = CliRun.Run(["cat", .. PersonaGame("CPK"), "-o", _dir["out.bin"]]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error.ReplaceLineEndings("\n"), Is.EqualTo($"archiveemu cat: {Path.Combine(Persona, "game", "CPK")}: a folder; give a file in it\n"));
    }
}
