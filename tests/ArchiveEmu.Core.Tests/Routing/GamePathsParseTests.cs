using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 48: one parser turns a typed or API-given path into the game-relative path every lookup compares. Before it,
/// <c>./data/textures.afs</c> matched no route and a mod loader's <c>Open</c> served the game's original.
/// </summary>
public sealed class GamePathsParseTests
{
    [TestCase("data/textures.afs", "data/textures.afs")]
    [TestCase("./data/textures.afs", "data/textures.afs")]
    [TestCase("data/./textures.afs", "data/textures.afs")]
    [TestCase("data//textures.afs", "data/textures.afs")]
    [TestCase("data/textures.afs/", "data/textures.afs")]
    [TestCase("data\\textures.afs", "data/textures.afs")]
    [TestCase(".\\data\\.\\\\textures.afs\\", "data/textures.afs")]
    [TestCase("CPK/EN.CPK/./BATTLE//TABLE/UNIT.TBL", "CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL")]
    [TestCase("..data/x..", "..data/x..")] // only a whole '..' step leaves the folder
    public void Parse_DropsDotAndEmptySteps(string typed, string expected) =>
        Assert.That(GamePaths.Parse(typed), Is.EqualTo(expected));

    [TestCase("../secret")]
    [TestCase("data/../../secret")]
    [TestCase("data\\..\\x")]
    [TestCase("/etc/passwd")]
    [TestCase("\\data\\x")]
    public void Parse_AbsoluteOrDotDot_IsRefusedNamingThePath(string typed) =>
        Assert.That(() => GamePaths.Parse(typed), Throws.ArgumentException.With.Message.EqualTo(
            $"{typed}: must be a path inside the game folder (no absolute paths, no '..')"));

    [TestCase(".")]
    [TestCase("./")]
    [TestCase("")]
    [TestCase(".//.")]
    public void Parse_TheGameFolderItself_IsRefused(string typed) =>
        Assert.That(() => GamePaths.Parse(typed), Throws.ArgumentException.With.Message.EqualTo(
            $"{typed}: names the game folder itself; give a file in it (such as data/textures.afs)"));

    [Test]
    public void ArchiveEmulatorOpen_APathWithDotAndEmptySteps_ServesTheModdedArchive()
    {
        using var emulator = new ArchiveEmulator(RepositoryFiles.Fixture("game"));
        emulator.AddModFolder(RepositoryFiles.Fixture("mods/hd-textures"));
        var modded = Read(emulator, "data/textures.afs");
        Assert.That(modded, Is.Not.EqualTo(File.ReadAllBytes(RepositoryFiles.Fixture("game/data/textures.afs"))), "the mod changes it");
        Assert.That(Read(emulator, "./data//textures.afs"), Is.EqualTo(modded));
        Assert.That(Read(emulator, ".\\data\\textures.afs"), Is.EqualTo(modded));
        Assert.That(emulator.Describe("./data/textures.afs"), Is.EqualTo(emulator.Describe("data/textures.afs")));
    }

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var stream = emulator.OpenStream(route);
        using var bytes = new MemoryStream();
        stream.CopyTo(bytes);
        return bytes.ToArray();
    }
}
