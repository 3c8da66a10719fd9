using System.Text.RegularExpressions;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Emulated archives passed through as copy-on-write clones (as root, passthrough on): on XFS each emulated archive
/// the mods change is cloned while the mount builds ahead, opened by the kernel with no read reaching the host, and
/// reads exactly what the mods make of it (independent readers); where the file system cannot share blocks, one line
/// says so and the host serves them.
/// </summary>
[NonParallelizable]
public sealed class CloneTests
{
    private static readonly string[] Emulated = ["data/textures.afs", "data/data.cpk", "data/bundle.tar"]; // the archives the mods target

    [SetUp]
    public void RequirePassthrough()
    {
        LibFuseProbe.RequireFuse();
        CiMachine.RequireRoot("passthrough needs the host's own FUSE protocol, which mounts with mount(2) as root");
        var kernel = KernelPassthroughProbe.Ask();
        CiMachine.Require(kernel.Offered is null ? $"whether this kernel offers FUSE passthrough: {kernel.Reason}" : null);
        if (kernel.Offered == false)
            Assert.Ignore($"this kernel does not offer FUSE passthrough: {kernel.Reason}");
    }

    [Test]
    public void OnXfs_EmulatedArchivesAreClonedAhead_PassedThrough_AndEveryByteIsRight()
    {
        using var xfs = ReflinkFolder.Create();
        using var game = new SampleGame(xfs.Folder);
        string output;
        using (var host = HostProcess.StartHost(game.MountPoint, game.HostArgs("never", "--ArchiveEmu:Fuse=kernel", "--ArchiveEmu:Passthrough=true",
                   "--Serilog:MinimumLevel:Default=Debug")).WaitMounted())
        {
            foreach (var file in Emulated)
                host.OutputOnce($"{file}: cloned for passthrough", TimeSpan.FromSeconds(20));
            for (int pass = 0; pass < 2; pass++)
                foreach (var file in game.VisibleFiles)
                    game.AssertServes(file, game.Mounted(file));
            host.Terminate();
            Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
            output = host.Output;
        }

        foreach (var file in Emulated)
        {
            Assert.That(output, Does.Match($@"{Regex.Escape(file)}: cloned for passthrough in \d+ ms: .+ shared with the original, .+ written"), file);
            Assert.That(output, Does.Match($@"open {Regex.Escape(file)}: passthrough \(backing file \d+\)"), file);
            Assert.That(output, Does.Match($@"read statistics {Regex.Escape(file)}: [1-9]\d* opens, 0 reads, 0 B served"), file);
        }
        Assert.That(output, Does.Not.Contain("no clones for passthrough"));
        Assert.That(Directory.GetFiles(game.Game, "*", SearchOption.AllDirectories).Select(f => Path.GetRelativePath(game.Game, f).Replace('\\', '/')),
            Is.EquivalentTo(SampleGameFiles(game)), "the clones have no name: nothing is left in the game folder");
    }

    [Test]
    public void OnXfs_AfterAHotReload_TheNewVersionIsServedByTheHostUntilItsCloneIsMade_ThenPassedThrough()
    {
        using var xfs = ReflinkFolder.Create();
        using var game = new SampleGame(xfs.Folder);
        using var host = HostProcess.StartHost(game.MountPoint, game.HostArgs("never", "--ArchiveEmu:Fuse=kernel", "--ArchiveEmu:Passthrough=true",
            "--Serilog:MinimumLevel:Default=Debug")).WaitMounted();
        const string afs = "data/textures.afs";
        host.OutputOnce($"{afs}: cloned for passthrough", TimeSpan.FromSeconds(20));
        game.AssertServes(afs, game.Mounted(afs));

        // Replaced by rename, so the mod folder goes from one version to the next in one step and one reload: written in
        // place, a reload could fall between the truncation and the write and make a version of its own.
        string staging = game.Write("staging.dds", TestData.Random(90, 3_000));
        File.Move(staging, Path.Combine(game.Mods[0], "data", "textures.afs", "9.dds"), overwrite: true); // not the entry ui-fix wins
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!game.Serves(afs, game.Mounted(afs)) && clock.Elapsed < TimeSpan.FromSeconds(15))
            Thread.Sleep(100); // the first open of the new version is served by the host and starts its clone
        game.AssertServes(afs, game.Mounted(afs));
        while (Clones(host.Output, afs) < 2 && clock.Elapsed < TimeSpan.FromSeconds(30))
            Thread.Sleep(100);
        Assert.That(Clones(host.Output, afs), Is.EqualTo(2), host.Output);
        int passedThrough = Opens(host.Output, afs, "passthrough");
        game.AssertServes(afs, game.Mounted(afs));
        Assert.That(Opens(host.Output, afs, "passthrough"), Is.GreaterThan(passedThrough), "the open after the new clone is passed through");
        Assert.That(Opens(host.Output, afs, "served by the host"), Is.Positive, "an open before the new version's clone was made");
    }

    private static int Clones(string output, string file) => Regex.Matches(output, $@"{Regex.Escape(file)}: cloned for passthrough").Count;

    private static int Opens(string output, string file, string how) => Regex.Matches(output, $@"open {Regex.Escape(file)}: {Regex.Escape(how)}").Count;

    [Test]
    public void InPlaceOnXfs_TheClonesAreMadeBesideTheCoveredOriginals_AndEveryByteIsRight()
    {
        using var xfs = ReflinkFolder.Create();
        using var game = new SampleGame(xfs.Folder);
        string copy = game.CopyGame("unmounted"); // what the game folder holds, readable while the mount covers it
        using var host = game.StartInPlace("kernel");
        foreach (var file in Emulated)
            host.OutputOnce($"{file}: cloned for passthrough", TimeSpan.FromSeconds(20));
        foreach (var file in game.VisibleFiles)
            game.AssertServes(file, Path.Combine(game.Game, file), copy);
        Assert.That(host.Output, Does.Not.Contain("no clones for passthrough"));
        foreach (var file in Emulated)
            Assert.That(host.Output, Does.Match($@"{Regex.Escape(file)}: cloned for passthrough in \d+ ms"), file);
    }

    [Test]
    public void OnAFileSystemThatCannotShareBlocks_OneLineSaysSo_AndTheHostServesEveryByte()
    {
        using var game = new SampleGame();
        ReflinkFolder.IgnoreIfItSharesBlocks(game.Root);
        using var host = HostProcess.StartHost(game.MountPoint, game.HostArgs("never", "--ArchiveEmu:Fuse=kernel", "--ArchiveEmu:Passthrough=true",
            "--Serilog:MinimumLevel:Default=Debug")).WaitMounted();
        host.OutputOnce("no clones for passthrough", TimeSpan.FromSeconds(20));
        foreach (var file in game.VisibleFiles)
            game.AssertServes(file, game.Mounted(file));
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);

        Assert.That(Regex.Matches(host.Output, "no clones for passthrough").Count, Is.EqualTo(1), host.Output);
        Assert.That(host.Output, Does.Contain("the file system cannot share blocks with").And.Contain("; emulated archives are served by the host"));
        Assert.That(host.Output, Does.Contain("open data/textures.afs: served by the host"));
    }

    private static string[] SampleGameFiles(SampleGame game) => Directory.GetFiles(RepositoryFiles.Fixture("game"), "*", SearchOption.AllDirectories)
        .Select(f => Path.GetRelativePath(RepositoryFiles.Fixture("game"), f).Replace('\\', '/')).Append("data/bundle.tar").ToArray();
}
