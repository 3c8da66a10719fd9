using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// One mount of the sample game read by programs nobody here wrote: every file against what independent readers say the
/// mods make of it (<see cref="IndependentContent"/>) and the originals, unzip -t, tar -tf, ls -l, writes, 16 threads. Once per way of
/// serving: our own FUSE protocol with emulation and with merged archives (passed through), and libfuse.
/// </summary>
[TestFixture("kernel", "never")]
[TestFixture("kernel", "always")]
[TestFixture("libfuse", "never")]
[NonParallelizable]
public sealed class MountReadTests(string fuse, string merge) : SampleGameMountFixture(fuse, merge)
{
    [Test]
    public void TheMount_IsReadOnly_AndHiddenFromOtherUsers()
    {
        var line = File.ReadAllLines("/proc/self/mountinfo").Single(l => l.Split(' ')[4] == _game.MountPoint);
        Assert.That(line.Split(' ')[5].Split(','), Does.Contain("ro"), line);
        Assert.That(line, Does.Not.Contain("allow_other"), line);
        CiMachine.RequireRoot("to try the mount as another user");
        ExternalTool.Require("setpriv");
        // Without allow_other the kernel lets only the user who mounted in: "nobody" gets EACCES.
        var other = ExternalTool.Run("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "ls", _game.MountPoint);
        Assert.That(other.ExitCode, Is.Not.Zero, other.ToString());
        Assert.That(other.StdErr, Does.Contain("Permission denied"));
        var control = ExternalTool.Run("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "ls", _game.Game);
        Assert.That(control.ExitCode, Is.Zero, "the game folder itself is readable by nobody: the refusal above is the mount's: " + control);
    }

    [Test]
    public void EveryFile_ReadThroughTheMount_HoldsWhatTheModsMakeOfIt_ByIndependentReaders()
    {
        foreach (var file in _game.VisibleFiles)
            _game.AssertServes(file, _game.Mounted(file));
    }

    [Test]
    public void FilesNoModTouches_ReadThroughTheMount_AreTheOriginals()
    {
        foreach (var file in new[] { "data/ui.zip", "data/voice.afs" })
            Assert.That(File.ReadAllBytes(_game.Mounted(file)), Is.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, file))), file);
        Assert.That(File.ReadAllBytes(_game.Mounted("data/textures.afs")), Is.Not.EqualTo(File.ReadAllBytes(Path.Combine(_game.Game, "data/textures.afs"))));
        Assert.That(File.ReadAllText(_game.Mounted("data/readme.txt")), Is.EqualTo(File.ReadAllText(Path.Combine(_game.Mods[1], "data/readme.txt"))));
    }

    [Test]
    public void LsLong_ShowsEveryFileWithItsEmulatedSize_AndNoWriteBits()
    {
        var ls = ExternalTool.Run("ls", "-lnR", _game.MountPoint);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        var sizes = new Dictionary<string, long>();
        string folder = "";
        foreach (var line in ls.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.EndsWith(':'))
                folder = Path.GetRelativePath(_game.MountPoint, line.TrimEnd(':')).Replace('\\', '/');
            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (fields.Length >= 9 && fields[0].StartsWith('-'))
            {
                Assert.That(fields[0], Does.Not.Contain("w"), line);
                sizes[folder == "." ? fields[^1] : $"{folder}/{fields[^1]}"] = long.Parse(fields[4], System.Globalization.CultureInfo.InvariantCulture);
            }
        }
        Assert.That(sizes.Keys, Is.EquivalentTo(_game.VisibleFiles));
        foreach (var file in _game.VisibleFiles)
            Assert.That(sizes[file], Is.EqualTo(File.ReadAllBytes(_game.Mounted(file)).Length), $"{file}: the size ls shows is the size a read gives");
    }

    [Test]
    public void TargetedArchive_ModifiedTime_IsItsNewestInput()
    {
        var inputs = new[] { Path.Combine(_game.Game, "data/textures.afs") }
            .Concat(_game.Mods.Select(m => Path.Combine(m, "data/textures.afs")).Where(Directory.Exists).SelectMany(Directory.EnumerateFiles))
            .Where(f => !f.EndsWith(".del", StringComparison.Ordinal)); // a deletion has no bytes, so no input time
        var newest = inputs.Max(File.GetLastWriteTimeUtc);
        Assert.That(File.GetLastWriteTimeUtc(_game.Mounted("data/textures.afs")), Is.EqualTo(newest));
    }

    [Test]
    public void UnzipTest_OnTheMountedZip_FindsNoErrors()
    {
        var unzip = ExternalTool.Run("unzip", "-t", _game.Mounted("data/ui.zip"));
        Assert.That(unzip.ExitCode, Is.Zero, unzip.ToString());
        Assert.That(unzip.StdOut, Does.Contain("No errors detected"));
    }

    [Test]
    public void Tar_OnTheMountedTar_ListsAndExtractsTheModdedMembers()
    {
        var list = ExternalTool.Run("tar", "-tf", _game.Mounted("data/bundle.tar"));
        Assert.That(list.ExitCode, Is.Zero, list.ToString());
        Assert.That(list.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries), Is.EqualTo(new[] { "a.txt", "b.txt", "c.txt" }));
        var member = ExternalTool.Run("tar", "-xOf", _game.Mounted("data/bundle.tar"), "b.txt");
        Assert.That(member.StdOut, Is.EqualTo("bravo, modded\n"));
    }

    [TestCase("echo x >> {0}/data/readme.txt")]
    [TestCase("echo x > {0}/data/new.txt")]
    [TestCase("mkdir {0}/data/newdir")]
    [TestCase("rm {0}/data/voice.afs")]
    [TestCase("touch {0}/data/ui.zip")]
    public void Writing_AnyWay_FailsWithReadOnlyFileSystem(string command)
    {
        var result = ExternalTool.Run("sh", "-c", string.Format(System.Globalization.CultureInfo.InvariantCulture, command, _game.MountPoint));
        Assert.That(result.ExitCode, Is.Not.Zero, result.ToString());
        Assert.That(result.StdErr, Does.Contain("Read-only file system"), result.ToString());
    }

    [Test]
    public void SixteenThreads_ReadingAtOnce_EachGetTheRightBytes()
    {
        // At least 200 reads per thread; ARCHIVEEMU_LOAD_SECONDS=60 makes it issue 7's long load run (docs/RELIABILITY.md).
        var duration = TimeSpan.FromSeconds(int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_LOAD_SECONDS"), out int s) && s > 0 ? s : 0);
        var files = new[] { "data/textures.afs", "data/bundle.tar", "data/ui.zip" };
        // One whole read each, checked by independent readers: the bytes every ranged read below must agree with.
        var expected = files.ToDictionary(f => f, f => File.ReadAllBytes(_game.Mounted(f)));
        foreach (var (file, bytes) in expected)
            _game.AssertServes(file, bytes);
        var failures = new System.Collections.Concurrent.ConcurrentBag<string>();
        long reads = 0;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var threads = Enumerable.Range(0, 16).Select(t => new Thread(() =>
        {
            var random = new Random(t);
            for (int i = 0; (i < 200 || clock.Elapsed < duration) && failures.Count < 20; i++)
            {
                var file = files[random.Next(files.Length)];
                var bytes = expected[file];
                try
                {
                    using var handle = File.OpenHandle(_game.Mounted(file));
                    int offset = random.Next(bytes.Length);
                    var buffer = new byte[random.Next(2) == 0 ? 4096 : random.Next(1, 70_000)];
                    int read = RandomAccess.Read(handle, buffer, offset);
                    int want = Math.Min(buffer.Length, bytes.Length - offset);
                    if (read != want || !buffer.AsSpan(0, read).SequenceEqual(bytes.AsSpan(offset, read)))
                        failures.Add($"thread {t}: {file} at {offset}: read {read} of {want}, bytes differ");
                    Interlocked.Increment(ref reads);
                }
                catch (IOException e)
                {
                    failures.Add($"thread {t}: {file}: {e.Message}");
                }
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());
        double seconds = clock.Elapsed.TotalSeconds;
        TestContext.Out.WriteLine($"mount load: 16 threads, {seconds:F1} s, {reads:N0} open+read pairs ({reads / seconds:N0}/s), {failures.Count} errors");
        Assert.That(failures, Is.Empty);
    }
}
