using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 17: the sample game with its data moved to "disk2" and symlinks left behind, mounted. The mount serves a
/// symlink as its target (a regular file or folder, the target's size), holding what independent readers say the mods make
/// of it (<see cref="IndependentContent"/>): an untouched file (passed through as root where the kernel offers it), an
/// emulated or merged archive whose original is a link, and files in a linked folder, where the mod still applies by the
/// link's name. A dangling link is absent. Once per way of serving.
/// </summary>
[TestFixture("kernel", "never")]
[TestFixture("kernel", "always")]
[TestFixture("libfuse", "never")]
[NonParallelizable]
public sealed class GameSymlinkMountTests(string fuse, string merge) : SampleGameMountFixture(fuse, merge)
{
    private static readonly string[] Visible = SampleGame.VisibleFilesWithLinks;

    private protected override void Prepare(SampleGame game)
    {
        LinuxOnly.RequireSymlinks();
        game.MoveDataBehindSymlinks();
    }

    private protected override string[] ExtraHostArgs(SampleGame game) => ["--Serilog:MinimumLevel:Default=Debug"];

    [Test]
    public void EveryFile_ReadThroughTheMount_HoldsWhatTheModsMakeOfIt_ByIndependentReaders()
    {
        foreach (var file in Visible)
            _game.AssertServes(file, _game.Mounted(file));
    }

    [Test]
    public void UntouchedFilesBehindSymlinks_AreTheirTargets_AndModdedOnesAreNot()
    {
        string disk2 = _game.SecondDisk;
        foreach (var (file, target) in new[] { ("data/voice.afs", "voice.afs"), ("movies/intro.zip", "movies/intro.zip"), ("movies/notes.txt", "movies/notes.txt") })
            Assert.That(File.ReadAllBytes(_game.Mounted(file)), Is.EqualTo(File.ReadAllBytes(Path.Combine(disk2, target))), file);
        Assert.That(File.ReadAllBytes(_game.Mounted("data/textures.afs")), Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(disk2, "textures.afs"))), "modded");
        if (Merge == "always")
            foreach (var archive in new[] { "data/textures.afs", "movies/credits.tar" })
            {
                File.ReadAllBytes(_game.Mounted(archive)); // built on first use
                Assert.That(OutputOnceItContains($"built {archive}: merged"), Does.Contain($"built {archive}: merged"), "a linked original is merged like any other");
            }
    }

    [Test]
    public void UntouchedFilesBehindSymlinks_AreReadByTheKernelFromTheirTargets_WherePassthroughIsOffered()
    {
        string[] untouched = ["data/voice.afs", "movies/intro.zip", "movies/notes.txt"];
        foreach (var file in untouched)
            File.ReadAllBytes(_game.Mounted(file));
        if (Fuse == "libfuse")
        {
            // libfuse's high-level API has no passthrough: every read is the host's, and its log says no file was passed through.
            Assert.That(OutputOnceItContains($"open {untouched[^1]}"), Does.Not.Contain(": passthrough (backing file "));
            return;
        }
        // Asked of the kernel, never of the host's log: a host that fails to use an offered passthrough fails here.
        CiMachine.RequireRoot("passthrough needs the host's own FUSE protocol, which mounts with mount(2) as root");
        var kernel = KernelPassthroughProbe.Ask();
        CiMachine.Require(kernel.Offered == true ? null : $"the passthrough part: this kernel does not offer FUSE passthrough ({kernel.Reason})");
        Assert.That(_host.OutputOnce("passthrough on", TimeSpan.FromSeconds(10)), Does.Contain("passthrough on"), $"the kernel offers passthrough ({kernel.Reason}), the host did not use it");
        foreach (var file in untouched)
            Assert.That(OutputOnceItContains($"open {file}: passthrough (backing file "), Does.Contain($"open {file}: passthrough (backing file "));
    }

    [Test]
    public void LsLong_ShowsLinksAsTheirTargets_WithTheServedSizes_AndNoDanglingName()
    {
        var ls = ExternalTool.Run("ls", "-lnR", _game.MountPoint);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var files = new Dictionary<string, long>();
        var folders = new List<string>();
        string folder = "";
        foreach (var line in ls.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.EndsWith(':'))
                folder = Path.GetRelativePath(_game.MountPoint, line.TrimEnd(':')).Replace('\\', '/');
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length < 9)
                continue;
            string path = folder == "." ? fields[^1] : $"{folder}/{fields[^1]}";
            Assert.That(fields[0][0], Is.AnyOf('-', 'd'), $"a link is served as what it leads to: {line}");
            if (fields[0][0] == 'd')
                folders.Add(path);
            else
                files[path] = long.Parse(fields[4], System.Globalization.CultureInfo.InvariantCulture);
        }
        Assert.That(files.Keys, Is.EquivalentTo(Visible));
        Assert.That(folders, Does.Contain("movies"));
        foreach (var file in Visible)
            Assert.That(files[file], Is.EqualTo(File.ReadAllBytes(_game.Mounted(file)).Length), $"{file}: the size ls shows is the size a read gives");
    }

    [Test]
    public void DanglingGameSymlink_IsAbsent_AndStatSaysNoSuchFile()
    {
        Assert.That(Directory.GetFileSystemEntries(_game.Mounted("data")).Select(Path.GetFileName), Does.Not.Contain("gone.afs"));
        var stat = ExternalTool.Run("stat", _game.Mounted("data/gone.afs"));
        Assert.That(stat.ExitCode, Is.Not.Zero, stat.ToString());
        Assert.That(stat.StdErr, Does.Contain("No such file or directory"), stat.ToString());
        Assert.That(_host.HasExited, Is.False, _host.Output);
    }

    [Test]
    public void TarAndUnzip_InsideTheLinkedFolder_SeeTheModdedAndTheOriginalArchive()
    {
        var list = ExternalTool.Run("tar", "-tf", _game.Mounted("movies/credits.tar"));
        Assert.That(list.ExitCode, Is.Zero, list.ToString());
        Assert.That(list.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries), Is.EqualTo(new[] { "a.txt", "b.txt", "c.txt" }));
        Assert.That(ExternalTool.Run("tar", "-xOf", _game.Mounted("movies/credits.tar"), "c.txt").StdOut, Is.EqualTo("charlie, through the link\n"));
        var unzip = ExternalTool.Run("unzip", "-t", _game.Mounted("movies/intro.zip"));
        Assert.That(unzip.ExitCode, Is.Zero, unzip.ToString());
        Assert.That(unzip.StdOut, Does.Contain("No errors detected"));
    }

    // The host's log reaches us through a pipe read in the background: a line may land a moment after the read that caused it.
    private string OutputOnceItContains(string text)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!_host.Output.Contains(text, StringComparison.Ordinal) && clock.Elapsed < TimeSpan.FromSeconds(5))
            Thread.Sleep(20);
        return _host.Output;
    }
}
