using System.Text.Json;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 32, <c>--reloaded</c> and <c>--reloaded-dir</c>: the sample's two mods installed as Reloaded-II mods in a fake Proton
/// prefix, enabled as "hd" then "ui", where hd depends on ui: Reloaded-II loads ui first, so hd wins entry 3 of data/textures.afs.
/// </summary>
[NonParallelizable] // swaps where --reloaded looks (ReloadedOptions.SearchRoots)
public sealed class ReloadedSetupCommandTests
{
    private TempDirectory _dir = null!;
    private FakeProtonPrefix _p = null!;
    private string _hd = null!, _ui = null!;

    [SetUp]
    public void CreateSetup()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _dir = new TempDirectory("cli-reloaded");
        _p = new FakeProtonPrefix(_dir.Path);
        Copy(CliRun.Fixture("game"), _p.Game);
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe")), "hd", "ui");
        _hd = _p.Mod("hd-textures", "hd", "HD Textures", "2.1.0", ["ui"]);
        _ui = _p.Mod("ui-fix", "ui", "UI Fix", "1.0.3");
        Copy(CliRun.Fixture("mods/hd-textures"), Path.Combine(_hd, "Redirector"));
        Copy(CliRun.Fixture("mods/ui-fix"), Path.Combine(_ui, "Redirector"));
        _p.Mod("framework", "framework", "Some Framework", "1.0.0", dll: "Framework.dll");
    }

    [TearDown]
    public void DeleteSetup()
    {
        ReloadedOptions.SearchRoots = ReloadedSearchRoots.FromEnvironment;
        _dir?.Dispose();
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

    private byte[] Cat(params string[] options)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.afs"];
        var result = CliRun.Run(["cat", "--game", _p.Game, "--no-cache", .. options, "data/textures.afs", "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return File.ReadAllBytes(output);
    }

    [Test]
    public void Cat_ReloadedDir_ServesTheSameBytesAsTheModsGivenInReloadedIIsOrder()
    {
        var served = Cat("--reloaded-dir", _p.ConfigFolder);

        Assert.That(served, Is.EqualTo(Cat("--mod", _ui, "--mod", _hd)));
        Assert.That(served, Is.Not.EqualTo(Cat("--mod", _hd, "--mod", _ui)), "the enabled order alone would let ui win");
        File.WriteAllBytes(_dir["served.afs"], served);
        var entry3 = AfsIndependentReader.Read(_dir["served.afs"])[3].Sha256;
        Assert.That(entry3, Is.EqualTo(AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(_hd, "Redirector/data/textures.afs/3.dds")))));
    }

    [Test]
    public void Build_ReloadedDir_ListsTheModsTakenInOrderAndTheSkippedOnes()
    {
        var result = CliRun.Run("build", "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder, "--no-cache");

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.Out.Split('\n');
        Assert.That(lines.Where(l => l.StartsWith("reloaded ") || l.StartsWith("mod ") || l.StartsWith("skipped ")), Is.EqualTo(new[]
        {
            $"reloaded   {_p.ConfigFolder} (--reloaded-dir)",
            $"reloaded   app p5r.exe (Persona 5 Royal): {FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe"))} -> {Path.Combine(_p.Game, "P5R.exe")}",
            $"reloaded   mods {_p.Mods}",
            $"mod 1      UI Fix 1.0.3  {_ui}",
            $"mod 2      HD Textures 2.1.0  {_hd}",
            $"skipped    Some Framework 1.0.0 ({Path.Combine(_p.Mods, "framework")}): disabled in Reloaded-II",
        }));
    }

    [Test]
    public void BuildJson_ReloadedDir_AddsTheSetupAndKeepsTheRest()
    {
        var result = CliRun.Run("build", "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder, "--mod", CliRun.Fixture("mods/fef-mod"), "--no-cache", "--json");

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var reloaded = doc.RootElement.GetProperty("reloaded");
        Assert.That(reloaded.GetProperty("app").GetString(), Is.EqualTo("p5r.exe"));
        Assert.That(reloaded.GetProperty("taken").EnumerateArray().Select(t => (t.GetProperty("id").GetString(), t.GetProperty("version").GetString(), t.GetProperty("folder").GetString())),
            Is.EqualTo(new[] { ("ui", "1.0.3", _ui), ("hd", "2.1.0", _hd) }));
        Assert.That(reloaded.GetProperty("skipped").EnumerateArray().Select(s => s.GetProperty("reason").GetString()), Is.EqualTo(new[] { "disabled in Reloaded-II" }));
        Assert.That(doc.RootElement.GetProperty("mods").EnumerateArray().Select(m => m.GetProperty("mod").GetString()),
            Is.EqualTo(new[] { "ui-fix", "hd-textures", "fef-mod" }), "--mod after the setup's mods");
    }

    [Test]
    public void Cat_ReloadedUnderASteamLaunch_FindsTheSetupInTheLaunchsPrefix()
    {
        ReloadedOptions.SearchRoots = () => new ReloadedSearchRoots(_dir["no-home"], _p.CompatData, []);

        Assert.That(Cat("--reloaded"), Is.EqualTo(Cat("--mod", _ui, "--mod", _hd)));
    }

    [Test]
    public void Cat_ReloadedFoundNowhere_FailsInOneLineSayingWhereItLooked()
    {
        if (ArchiveEmuProgram.Installed is not null) // where --reloaded looks is set in this process, which an installed binary is not
            Assert.Ignore("sets ReloadedOptions.SearchRoots in the test's process; ARCHIVEEMU_EXE runs another");
        ReloadedOptions.SearchRoots = () => new ReloadedSearchRoots(_dir["no-home"], null, []);
        Directory.Delete(_p.ConfigFolder, recursive: true);
        Directory.Delete(_p.CompatData, recursive: true);

        var result = CliRun.Run("cat", "--game", _p.Game, "--reloaded", "data/textures.afs", "-o", _dir["x.afs"]);

        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Error, Is.EqualTo($"archiveemu cat: {_p.Game}: no Reloaded-II setup found for this game; looked in "
            + $"{_dir["no-home/.wine/drive_c/users/<user>/AppData/Roaming/Reloaded-Mod-Loader-II"]}, {_dir["no-home/Desktop/Reloaded-II - P5R"]}; "
            + "give its folder with --reloaded-dir PATH\n"));
    }

    [Test]
    public void Mount_ReloadedDir_GivesTheHostTheSetupsModsThenTheModOptions()
    {
        var error = new StringWriter();

        var (options, _) = HostSettings.Request(false, _dir["mnt"], error, "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder, "--mod", CliRun.Fixture("mods/fef-mod"));

        Assert.That(options.Mods, Is.EqualTo(new[] { _ui, _hd, Path.GetFullPath(CliRun.Fixture("mods/fef-mod")) }));
        Assert.That(error.ToString(), Does.Contain($"archiveemu: mod 1      UI Fix 1.0.3  {_ui}\n"));
    }

    [TestCase("--mod MODS", "--mod MODS holds 3 Reloaded-II mods in subfolders (framework, grouped/ui-fix, hd-textures), not one mod; "
        + "use --reloaded or --reloaded-dir PATH for a Reloaded-II setup, or one --mod per mod folder")]
    [TestCase("--mod MODS/grouped", "--mod MODS/grouped holds one Reloaded-II mod, in ui-fix, not at its top; give that folder: --mod MODS/grouped/ui-fix")]
    [TestCase("--reloaded --reloaded-dir MODS", "--reloaded and --reloaded-dir contradict each other; give one")]
    [TestCase("", "missing --mod DIR (or --reloaded, or --reloaded-dir PATH)")]
    public void Build_ModsGivenWrongly_IsAUsageErrorInOneLine(string options, string line)
    {
        Directory.Move(_ui, Directory.CreateDirectory(Path.Combine(_p.Mods, "grouped")).FullName + "/ui-fix"); // one mod in a folder of its own
        var args = new List<string> { "build", "--game", _p.Game };
        args.AddRange(options.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(a => a.Replace("MODS", _p.Mods)));

        var result = CliRun.Run([.. args]);

        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Does.EndWith(line.Replace("MODS", _p.Mods)));
    }

    [Test]
    public void Build_FileModsAlsoLoadedWithReloadedIIsRedirector_WarnsTheyAreAppliedTwice()
    {
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe")), "hd", "ui", "reloaded.universal.redirector");
        _p.Mod("redirector", "reloaded.universal.redirector", "Reloaded II: File Redirector", "3.0.0", dll: "Reloaded.Universal.Redirector.dll");

        var without = CliRun.Run("build", "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder, "--no-cache");
        Assert.That(without.Out, Does.Not.Contain("a second time"), "Reloaded-II is not in the game: no warning (issue 48)");
        var asi = Path.Combine(_p.Game, "Reloaded.Mod.Loader.Bootstrapper.asi");
        File.WriteAllBytes(asi, [0]);

        var result = CliRun.Run("build", "--game", _p.Game, "--reloaded-dir", _p.ConfigFolder, "--no-cache");

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out.Split('\n'), Does.Contain("warning    Reloaded-II app p5r.exe also loads UI Fix, HD Textures with Reloaded II: File Redirector: "
            + $"Reloaded-II is injected in this game ({asi}), so it applies their files a second time over what ArchiveEmu serves "
            + "(an SPD's new textures appended twice); disable them in Reloaded-II and give them with --mod, or start the game without Reloaded-II (docs/RELOADED-II.md)"));
    }

    [Test]
    public void Build_AModFolderWithItsOwnModConfig_IsOneMod()
    {
        var result = CliRun.Run("build", "--game", _p.Game, "--mod", _hd, "--no-cache");

        Assert.That(result.ExitCode, Is.Zero, result.ToString());
    }
}
