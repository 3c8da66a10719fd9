using ArchiveEmu.Host.Fuse;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Container;

/// <summary>
/// Issue 32, <c>run</c> under Steam: Steam starts a Proton game inside pressure-vessel, a bubblewrap container in a user
/// namespace that binds the game's install folder in at its own path (steam-runtime-tools, docs/shared-paths.md). Here a
/// normal user's <c>archiveemu run</c> mounts the game in place, then starts <c>bwrap --unshare-user</c> with an empty /tmp
/// and only the game folder bound in, as pressure-vessel does; inside, <c>cat</c> reads the game, and the bytes must be the
/// modded game the test built itself with an independent AFS writer.
/// </summary>
[NonParallelizable]
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class SteamContainerRunTests
{
    private const string Nobody = "65534";
    private TempDirectory _dir = null!;
    private UnixFileMode _deviceMode;
    private static readonly byte[][] Entries = Enumerable.Range(0, 4).Select(i => TestData.Random(40 + i, 3000 + 700 * i)).ToArray();
    private static readonly byte[] ModdedEntry = TestData.Random(50, 5000);

    private string Game => _dir["game"];

    [SetUp]
    public void CreateGame()
    {
        LibFuseProbe.RequireFuse();
        CiMachine.RequireRoot("to run archiveemu as the user nobody through setpriv");
        foreach (var tool in new[] { "setpriv", "fusermount3", "bwrap" }) // bwrap (Debian bubblewrap) stands in for Steam's container
            ExternalTool.Require(tool);
        _dir = new TempDirectory("steam-container");
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write(Entries));
        _dir.Write("game/data/readme.txt", "the original"u8.ToArray());
        _dir.Write("mods/voices/data/voice.afs/1.bin", ModdedEntry);
        _dir.Write("mods/voices/data/readme.txt", "the mod's"u8.ToArray());
        Directory.CreateDirectory(_dir["out"]);
        Directory.CreateDirectory(_dir["home"]);
        File.SetUnixFileMode(_dir.Path, (UnixFileMode)Convert.ToInt32("755", 8));
        var chown = ExternalTool.Run("chown", "-R", $"{Nobody}:{Nobody}", _dir.Path);
        Assert.That(chown.ExitCode, Is.Zero, chown.ToString());
        _deviceMode = File.GetUnixFileMode("/dev/fuse");
        // As a desktop distribution and SteamOS ship it (this machine, a container, has it 0600).
        File.SetUnixFileMode("/dev/fuse", _deviceMode | UnixFileMode.OtherRead | UnixFileMode.OtherWrite);
    }

    [TearDown]
    public void DeleteGame()
    {
        if (_dir is null)
            return;
        File.SetUnixFileMode("/dev/fuse", _deviceMode);
        if (MountPointState.IsMounted(Game))
            ExternalTool.Run("fusermount3", "-u", "-z", Game);
        _dir.Dispose();
    }

    /// <summary><c>archiveemu run</c> as nobody, in the game folder as Steam starts it, of <c>bwrap … COMMAND</c> with <paramref name="shared"/> bound in.</summary>
    private ToolResult RunInContainer(string shared, string command) =>
        ExternalTool.RunIn(Game, "setpriv", "--reuid=" + Nobody, "--regid=" + Nobody, "--clear-groups",
            "env", $"HOME={_dir["home"]}", $"DOTNET_CLI_HOME={_dir["home"]}",
            "dotnet", "exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"),
            "run", "--game", Game, "--mod", _dir["mods/voices"], "--no-cache", "--log-level", "Warning", "--",
            "bwrap", "--unshare-user", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--tmpfs", "/tmp", "--bind", shared, shared, "--bind", _dir["out"], _dir["out"], "sh", "-c", command);

    /// <summary>The game folder itself bound in (Steam's STEAM_COMPAT_INSTALL_PATH), or a folder above it (as the home folder is).</summary>
    [TestCase("game")]
    [TestCase("")]
    public void RunAsANormalUser_ACommandInAUserNamespaceContainer_ReadsTheModdedGameThroughTheBoundFolder(string bound)
    {
        var outside = _dir["out"];
        var result = RunInContainer(bound.Length == 0 ? _dir.Path : _dir[bound],
            $"cd {Game} && cat data/voice.afs > {outside}/voice.afs && cat data/readme.txt > {outside}/readme.txt && ls /tmp && cat /proc/self/uid_map");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());

        var lines = result.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines[0], Is.EqualTo(Path.GetFileName(_dir.Path)), "inside, /tmp is empty but for the path to the bound game folder");
        Assert.That(lines[1].Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], Is.EqualTo(Nobody), "a user namespace mapping nobody");

        var expected = Entries.Select((e, i) => i == 1 ? ModdedEntry : e).Select(e => (byte[]?)e).ToArray();
        // Entry by entry through the independent reader: where the emulated layout puts them is its own business (docs/FORMATS.md).
        Assert.That(AfsIndependentReader.Read(Path.Combine(outside, "voice.afs")).Select(e => e.Sha256),
            Is.EqualTo(expected.Select(e => AfsIndependentReader.Sha256(e!))));
        Assert.That(File.ReadAllText(Path.Combine(outside, "readme.txt")), Is.EqualTo("the mod's"));
        Assert.That(MountPointState.IsMounted(Game), Is.False, "run unmounts once the command ends");
        Assert.That(File.ReadAllText(_dir["game/data/readme.txt"]), Is.EqualTo("the original"));
    }

    [Test]
    public void RunAsANormalUser_AContainerThatDoesNotBindTheGameFolder_DoesNotSeeIt()
    {
        var result = RunInContainer(_dir["out"], $"cat {Game}/data/readme.txt");
        Assert.That(result.ExitCode, Is.Not.Zero, result.ToString());
        Assert.That(result.StdErr, Does.Contain($"{Game}/data/readme.txt: No such file or directory"), "the empty /tmp hides it: doctor's Steam container warning");
        Assert.That(MountPointState.IsMounted(Game), Is.False);
    }
}
