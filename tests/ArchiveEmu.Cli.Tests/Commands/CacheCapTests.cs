using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 32: the cache on a small disk. <c>cache gc --max-size</c> and <c>build --cache-max-size</c> remove the least recently
/// used entries until the rest fit, never one a live mount serves; <c>cache ls</c> says what the cache takes and what is free.
/// Two copies of the fixture game give four entries: game a's two used long ago, game b's two just now.
/// </summary>
public sealed class CacheCapTests
{
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private TempDirectory _dir = null!;

    private string Cache => _dir["cache"];

    [SetUp]
    public void BuildTwoGames()
    {
        _dir = new TempDirectory("cache-cap");
        foreach (var game in new[] { "a", "b" })
        {
            CopyFolder(CliRun.Fixture("game"), _dir[game]);
            Assert.That(Build(game).ExitCode, Is.Zero);
        }
        var now = DateTime.UtcNow;
        foreach (var e in Entries())
            File.SetLastWriteTimeUtc(Path.Combine(Cache, "used", e.Key), e.Route.StartsWith(_dir["a"], StringComparison.Ordinal) ? now.AddHours(-2) : now);
    }

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void GcMaxSize_RemovesTheLeastRecentlyUsedUntilTheRestFit()
    {
        LinuxOnly.Require("the test picks cache entries by their routes spelled with /, which Windows spells with \\ (the gc itself is the same code)");
        long cap = Entries().Where(InB).Sum(MergedFileCache.StoredBytes);
        var gc = CliRun.Run("cache", "gc", "--cache", Cache, "--max-size", cap.ToString(System.Globalization.CultureInfo.InvariantCulture));

        Assert.That(gc.ExitCode, Is.Zero, gc.ToString());
        Assert.That(gc.Out, Does.StartWith($"removed 0 entries unused for 14 days or damaged and 2 least recently used over {Units.Bytes(cap)}, kept 2; "));
        Assert.That(Routes(), Is.EqualTo(new[] { $"{_dir["b"]}/data/data.cpk", $"{_dir["b"]}/data/textures.afs" }), "game b's, used last");
    }

    [Test]
    public void GcMaxSize_OneByteUnderWhatIsStored_RemovesOnlyTheOldestEntry()
    {
        var entries = Entries();
        long cap = entries.Sum(MergedFileCache.StoredBytes) - 1;
        var oldest = entries.Where(e => !InB(e)).OrderBy(e => File.GetLastWriteTimeUtc(Path.Combine(Cache, "used", e.Key))).First();
        File.SetLastWriteTimeUtc(Path.Combine(Cache, "used", oldest.Key), DateTime.UtcNow.AddHours(-3));

        Assert.That(CliRun.Run("cache", "gc", "--cache", Cache, "--max-size", $"{cap}").ExitCode, Is.Zero);
        Assert.That(Routes(), Is.EqualTo(entries.Where(e => e.Key != oldest.Key).Select(e => e.Route).Order(StringComparer.Ordinal)));
    }

    [Test]
    public void AnEntryALiveMountServes_StaysOverTheCap_UntilTheMountEnds()
    {
        LinuxOnly.Require("the test picks cache entries by their routes spelled with /, which Windows spells with \\ (the gc itself is the same code)");
        var served = Entries().Single(e => e.Route == $"{_dir["a"]}/data/textures.afs");
        var mount = new MergedFileCache(Cache, new CacheOptions(RecordsLiveUse: true)); // as the host opens it
        using (mount.TryOpenLayout(served)) { }

        Assert.That(CliRun.Run("cache", "gc", "--cache", Cache, "--max-size", "1").ExitCode, Is.Zero);
        Assert.That(Routes(), Is.EqualTo(new[] { served.Route }), "the oldest, but in use");

        mount.EndLiveUse();
        Assert.That(CliRun.Run("cache", "gc", "--cache", Cache, "--max-size", "1").ExitCode, Is.Zero);
        Assert.That(Routes(), Is.Empty);
        Assert.That(Directory.EnumerateFiles(Path.Combine(Cache, LiveUse.FolderName)), Is.Empty, "no record of a mount that ended");
    }

    [Test]
    public void GcWithoutMaxSize_KeepsEverythingUsedWithinTheAge()
    {
        var gc = CliRun.Run("cache", "gc", "--cache", Cache);
        Assert.That(gc.Out, Does.StartWith("removed 0 entries unused for 14 days or damaged, kept 4; "));
        Assert.That(Routes(), Has.Length.EqualTo(4));
    }

    [Test]
    public void BuildCacheMaxSize_KeepsWhatItBuilt_AndRemovesTheLeastRecentlyUsed()
    {
        LinuxOnly.Require("the test picks cache entries by their routes spelled with /, which Windows spells with \\ (the gc itself is the same code)");
        long cap = Entries().Where(InB).Sum(MergedFileCache.StoredBytes);
        var build = Build("b", "--cache-max-size", $"{cap}");

        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(build.Error, Does.StartWith($"archiveemu: the cache took more than {Units.Bytes(cap)}: removed 2 least recently used entries over the size cap and 0 unused or damaged, kept 2; "));
        Assert.That(Routes(), Is.EqualTo(new[] { $"{_dir["b"]}/data/data.cpk", $"{_dir["b"]}/data/textures.afs" }));
    }

    [Test]
    public void BuildUnderTheDefaultCap_RemovesNothing_AndSaysNothing()
    {
        var build = Build("a");
        Assert.That(build.Error, Is.Empty);
        Assert.That(Routes(), Has.Length.EqualTo(4));
    }

    [Test]
    public void CacheLs_SaysWhatTheCacheTakesOnDisk_AndWhatIsFreeBesideIt()
    {
        var ls = CliRun.Run("cache", "ls", "--cache", Cache);
        long used = new DirectoryInfo(Cache).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
        long packs = new MergedFileCache(Cache).PackBytes();
        Assert.That(ls.Out.Split('\n')[0], Does.Match(
            $"^{System.Text.RegularExpressions.Regex.Escape($"{Cache}: 4 entries, packs {Units.Bytes(packs)}; {Units.Bytes(used)} on disk in all, ")}[0-9.]+ [KMGT]?i?B free beside it$"));
    }

    [Test]
    public void BadSizes_AreUsageErrorsNamingTheOption()
    {
        var gc = CliRun.Run("cache", "gc", "--cache", Cache, "--max-size", "lots");
        Assert.That(gc.ExitCode, Is.EqualTo(2));
        Assert.That(gc.Error.Split('\n')[0], Is.EqualTo("archiveemu cache gc: --max-size takes a size such as 32M or 1048576, not 'lots'"));
        var build = Build("a", "--cache-max-size", "0");
        Assert.That(build.ExitCode, Is.EqualTo(2));
        Assert.That(build.Error.Split('\n')[0], Is.EqualTo("archiveemu build: --cache-max-size takes a size such as 32M or 1048576, not '0'"));
    }

    private CliResult Build(string game, params string[] extra) =>
        CliRun.Run(["build", "--game", _dir[game], "--mod", Hd, "--cache", Cache, .. extra]);

    private bool InB(CacheEntry e) => e.Route.StartsWith(_dir["b"] + "/", StringComparison.Ordinal);

    private IReadOnlyList<CacheEntry> Entries() => new MergedFileCache(Cache).Entries();

    private string[] Routes() => Entries().Select(e => e.Route).Order(StringComparer.Ordinal).ToArray();

    private static void CopyFolder(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}
