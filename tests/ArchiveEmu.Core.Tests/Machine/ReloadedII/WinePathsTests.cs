using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>Windows paths Reloaded-II writes under Wine, mapped through a prefix's dosdevices/ links and matched ignoring letter case.</summary>
public sealed class WinePathsTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreatePrefix()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _dir = new TempDirectory("wine-paths");
        Directory.CreateDirectory(_dir["pfx/dosdevices"]);
        Directory.CreateDirectory(_dir["pfx/drive_c/users/steamuser/AppData"]);
        Directory.CreateDirectory(_dir["card/Mods/Some Mod"]);
        File.CreateSymbolicLink(_dir["pfx/dosdevices/c:"], "../drive_c");
        File.CreateSymbolicLink(_dir["pfx/dosdevices/z:"], "/");
        File.CreateSymbolicLink(_dir["pfx/dosdevices/e:"], _dir["card"]);
    }

    [TearDown]
    public void DeletePrefix() => _dir?.Dispose();

    [Test]
    public void ToLinux_EachDriveThroughItsLink_NamesSpelledAsOnDisk()
    {
        var prefix = _dir["pfx"];

        Assert.That(WinePaths.ToLinux(@"e:\MODS\some mod\missing\x.dll", prefix, out _), Is.EqualTo(_dir["card/Mods/Some Mod/missing/x.dll"]));
        Assert.That(WinePaths.ToLinux(@"C:\users\STEAMUSER\appdata", prefix, out _), Is.EqualTo(_dir["pfx/drive_c/users/steamuser/AppData"]));
        Assert.That(WinePaths.ToLinux("Z:" + _dir["card/mods"].Replace('/', '\\'), prefix, out _), Is.EqualTo(_dir["card/Mods"]));
        Assert.That(WinePaths.ToLinux(@"\\?\Z:\tmp", prefix, out _), Is.EqualTo("/tmp"));
    }

    [Test]
    public void ToLinux_ADriveWithoutALinkOrAPrefix_SaysWhy()
    {
        Assert.That(WinePaths.ToLinux(@"D:\Games", _dir["pfx"], out var why), Is.Null);
        Assert.That(why, Is.EqualTo($"drive D: of D:\\Games has no link {_dir["pfx/dosdevices/d:"]}"));
        Assert.That(WinePaths.ToLinux(@"E:\Mods", null, out why), Is.Null);
        Assert.That(why, Is.EqualTo(@"drive E: of E:\Mods cannot be mapped without a Wine prefix (only Z: is /)"));
        Assert.That(WinePaths.ToLinux(@"Z:\tmp", null, out _), Is.EqualTo("/tmp"));
    }

    [Test]
    public void PrefixAbove_AFolderInDriveC_IsThePrefix()
    {
        Assert.That(WinePaths.PrefixAbove(_dir["pfx/drive_c/users/steamuser/AppData"]), Is.EqualTo(_dir["pfx"]));
        Assert.That(WinePaths.PrefixAbove(_dir["card"]), Is.Null);
    }
}
