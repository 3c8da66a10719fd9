using ArchiveEmu.Cli.Options;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Cli.Tests.Profiles;

/// <summary>
/// Issue 32, "a profile reproduces the same flags" for a Reloaded-II setup: a profile saved with <c>--reloaded-dir</c> (the
/// sample's two mods in a fake Proton prefix) builds as <c>--game G --reloaded-dir DIR</c> does, Reloaded-II's order included.
/// </summary>
[NonParallelizable]
public sealed class ProfileReloadedTests
{
    private TempDirectory _dir = null!;
    private FakeProtonPrefix _p = null!;
    private UserFoldersScope _user = null!;

    [SetUp]
    public void CreateSetup()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _user = new UserFoldersScope();
        _dir = new TempDirectory("profile-reloaded");
        _p = new FakeProtonPrefix(_dir.Path);
        Copy(CliRun.Fixture("game"), _p.Game);
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe")), "hd", "ui");
        Copy(CliRun.Fixture("mods/hd-textures"), Path.Combine(_p.Mod("hd-textures", "hd", "HD Textures", "2.1.0", ["ui"]), "Redirector"));
        Copy(CliRun.Fixture("mods/ui-fix"), Path.Combine(_p.Mod("ui-fix", "ui", "UI Fix", "1.0.3"), "Redirector"));
    }

    [TearDown]
    public void DeleteSetup()
    {
        ReloadedOptions.SearchRoots = ReloadedSearchRoots.FromEnvironment;
        _dir?.Dispose();
        _user?.Dispose();
    }

    private static void Copy(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    [Test]
    public void AProfileSavedWithReloadedDir_BuildsAsTheFlagsDo()
    {
        var save = CliRun.Run("profile", "save", "p5r", "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder);
        Assert.That(save.ExitCode, Is.Zero, save.ToString());
        Assert.That(File.ReadAllText(Path.Combine(_user.Profiles, "p5r.json")), Does.Contain($"\"reloadedDir\": \"{_p.ConfigFolder}\""));
        var served = Cat("--profile", "p5r");
        Assert.That(served, Is.EqualTo(Cat("--game", _p.Game, "--reloaded-dir", _p.ConfigFolder)), "the same archive, in Reloaded-II's order");
        Assert.That(served, Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_p.Game, "data/textures.afs"))), "modded");
        var build = CliRun.Run("build", "--profile", "p5r", "--no-cache");
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Out, Does.Contain($"reloaded   {_p.ConfigFolder} (--reloaded-dir)"));
    }

    private byte[] Cat(params string[] options)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.afs"];
        var result = CliRun.Run(["cat", "--no-cache", .. options, "data/textures.afs", "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return File.ReadAllBytes(output);
    }
}
