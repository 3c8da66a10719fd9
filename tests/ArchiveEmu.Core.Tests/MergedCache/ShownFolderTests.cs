using ArchiveEmu.Core.MergedCache.Folder;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>The game folder named by its own path in the cache while it is read through a held handle (issue 32).</summary>
public sealed class ShownFolderTests
{
    private static readonly ShownFolder InPlace = new("/proc/self/fd/1000", "/games/P5R/");

    [TestCase("/proc/self/fd/1000/CPK/EN.CPK", "/games/P5R/CPK/EN.CPK")]
    [TestCase("/proc/self/fd/1000", "/games/P5R")]
    [TestCase("/proc/self/fd/10000/CPK/EN.CPK", "/proc/self/fd/10000/CPK/EN.CPK")] // another handle: not the game folder
    [TestCase("/mods/font/FONT0.FNT", "/mods/font/FONT0.FNT")]
    public void Show_NamesPathsInsideTheReadFolderByTheGamesOwnPath_AndLeavesOthers(string read, string shown) =>
        Assert.That(InPlace.Show(read), Is.EqualTo(shown));

    [TestCase("/games/P5R/CPK/EN.CPK", "/proc/self/fd/1000/CPK/EN.CPK")]
    [TestCase("/games/P5R2/CPK/EN.CPK", "/games/P5R2/CPK/EN.CPK")] // a sibling whose name only starts the same
    [TestCase("/mods/font/FONT0.FNT", "/mods/font/FONT0.FNT")]
    public void ReadPath_TurnsAShownPathBackIntoTheOneOpened(string shown, string read) =>
        Assert.That(InPlace.ReadPath(shown), Is.EqualTo(read));
}
