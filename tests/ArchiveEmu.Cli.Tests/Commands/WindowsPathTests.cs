using System.Formats.Tar;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Paths as Windows spells them (issue 16), run on Linux and, by .ci/windows-check, under Wine: drive letters and
/// backslashes in --game/--mod, entry names Windows reserves (CON, aux.dds, a trailing dot or space) inside archives,
/// folders deeper than MAX_PATH, a game holding an original open with read sharing while a build runs, and the
/// cache's writer lock and index rename under Windows sharing rules. Archives
/// are written and read back with System.Formats.Tar, not ArchiveEmu's own tar code.
/// </summary>
public sealed class WindowsPathTests
{
    private static readonly string[] ReservedNames = ["CON", "aux.dds", "name.", "trail ", "nul.txt", "ok.bin"];
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("winpath");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void GameAndModFolders_InEverySpellingOfThePlatform_GiveTheSameBytes()
    {
        var game = CliRun.Fixture("game");
        string[] mods = [CliRun.Fixture("mods/hd-textures"), CliRun.Fixture("mods/ui-fix")];
        var expected = Cat(game, mods, "data/textures.afs");

        foreach (var spell in Spellings())
        {
            var bytes = Cat(spell(game), mods.Select(spell).ToArray(), "data/textures.afs");
            Assert.That(bytes, Is.EqualTo(expected), $"--game {spell(game)}");
        }
        if (OperatingSystem.IsWindows())
            Assert.That(Path.GetPathRoot(Path.GetFullPath(game)), Does.Match("^[A-Za-z]:\\\\$"), "a drive letter was used");
    }

    // The folder as given, with the other separator, and (Windows) as a drive-relative "X:\..." full path.
    private static IEnumerable<Func<string, string>> Spellings()
    {
        yield return p => Path.GetFullPath(p);
        if (OperatingSystem.IsWindows())
        {
            yield return p => Path.GetFullPath(p).Replace('\\', '/');
            yield return p => Path.GetFullPath(p).Replace('/', '\\') + "\\";
        }
        else
            yield return p => Path.GetFullPath(p) + "/";
    }

    [Test]
    public void EntriesWithNamesWindowsReserves_AreServedInTheArchive_NeverCreatedAsFiles()
    {
        var originals = WriteTar("game/data/pack.tar", ReservedNames.Select((n, i) => (n, Enumerable.Repeat((byte)i, 100 + i).ToArray())));
        var replacement = _dir.Write("mod/data/pack.tar/ok.bin", [7, 7, 7]);
        var cache = _dir["cache"];
        string[] args = ["--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache];
        var before = Listing();

        var build = CliRun.Run(["build", .. args, "--merge", "always"]);
        var ls = CliRun.Run(["ls", .. args, "data/pack.tar"]);
        var output = _dir["out.tar"];
        var cat = CliRun.Run(["cat", .. args, "data/pack.tar", "-o", output]);
        Assert.That((build.ExitCode, ls.ExitCode, cat.ExitCode), Is.EqualTo((0, 0, 0)), build + "\n" + ls + "\n" + cat);
        foreach (var name in ReservedNames)
            Assert.That(ls.Out, Does.Contain(name), "listed under its own name");

        var served = ReadTar(output);
        Assert.That(served.Select(e => e.Name), Is.EqualTo(ReservedNames));
        for (int i = 0; i < ReservedNames.Length - 1; i++)
            Assert.That(served[i].Data, Is.EqualTo(originals[i]), ReservedNames[i]);
        Assert.That(served[^1].Data, Is.EqualTo(File.ReadAllBytes(replacement)), "the mod's ok.bin");

        var created = Listing().Except(before).Where(p => !p.StartsWith(cache, StringComparison.Ordinal)).ToList();
        Assert.That(created, Is.EqualTo(new[] { output }), "only the -o file appears outside the cache");
        var cacheFiles = Directory.EnumerateFiles(cache, "*", SearchOption.AllDirectories).Select(Path.GetFileName).ToList();
        Assert.That(cacheFiles.Intersect(ReservedNames.Select(n => n.TrimEnd('.', ' '))), Is.Empty, "no entry became a cache file");
    }

    [Test]
    public void ModFolderFile_NamedLikeAWindowsDevice_ReplacesTheEntry()
    {
        // Windows cannot create "aux.dds" through ordinary paths, so a mod can only carry one on Linux (or from an
        // archive a mod manager unpacked with \\?\ paths); the in-archive side is checked on both above.
        LinuxOnly.Require("a mod folder file named aux.dds (a DOS device name Windows will not create)");
        WriteTar("game/data/pack.tar", ReservedNames.Select((n, i) => (n, new byte[] { (byte)i })));
        _dir.Write("mod/data/pack.tar/aux.dds", [42, 42]);
        var output = _dir["out.tar"];
        var cat = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/pack.tar", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(ReadTar(output).Single(e => e.Name == "aux.dds").Data, Is.EqualTo(new byte[] { 42, 42 }));
    }

    [Test]
    public void FoldersDeeperThanMaxPath_BuildCatAndCache()
    {
        var deep = string.Join("/", Enumerable.Range(0, 12).Select(i => $"a-rather-long-folder-name-{i:00}"));
        Assert.That(_dir[deep].Length, Is.GreaterThan(300));
        var original = WriteTar($"{deep}/game/data/pack.tar", [("a.bin", new byte[] { 1 }), ("b.bin", new byte[] { 2, 2 })]);
        _dir.Write($"{deep}/mod/data/pack.tar/b.bin", [9, 9, 9]);
        string[] args = ["--game", _dir[$"{deep}/game"], "--mod", _dir[$"{deep}/mod"], "--cache", _dir[$"{deep}/cache"]];

        var build = CliRun.Run(["build", .. args, "--merge", "always"]);
        var output = _dir[$"{deep}/out.tar"];
        var cat = CliRun.Run(["cat", .. args, "data/pack.tar", "-o", output]);
        var verify = CliRun.Run(["cache", "verify", "--cache", _dir[$"{deep}/cache"]]);
        Assert.That((build.ExitCode, cat.ExitCode, verify.ExitCode), Is.EqualTo((0, 0, 0)), build + "\n" + cat + "\n" + verify);
        Assert.That(build.Out, Does.Contain("merged"));
        var served = ReadTar(output);
        Assert.That(served.Select(e => (e.Name, e.Data)), Is.EqualTo(new[] { ("a.bin", original[0]), ("b.bin", new byte[] { 9, 9, 9 }) }));
    }

    [Test]
    public void AGameHoldingTheOriginalOpen_WithReadSharing_DoesNotStopABuild()
    {
        WriteTar("game/data/pack.tar", [("a.bin", new byte[] { 1 }), ("b.bin", new byte[] { 2, 2 })]);
        _dir.Write("mod/data/pack.tar/b.bin", [9, 9, 9]);
        string[] args = ["--game", _dir["game"], "--mod", _dir["mod"], "--cache", _dir["cache"]];
        // What a game does: read access, sharing read only (no write, no delete). On Windows a second open is refused
        // unless it asks only for reading and lets the game keep its handle.
        using var game = new FileStream(_dir["game/data/pack.tar"], FileMode.Open, FileAccess.Read, FileShare.Read);

        var build = CliRun.Run(["build", .. args, "--merge", "always"]);
        var output = _dir["out.tar"];
        var cat = CliRun.Run(["cat", .. args, "data/pack.tar", "-o", output]);
        var uncached = CliRun.Run(["cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/pack.tar"]);
        Assert.That((build.ExitCode, cat.ExitCode, uncached.ExitCode), Is.EqualTo((0, 0, 0)), build + "\n" + cat + "\n" + uncached);
        Assert.That(ReadTar(output).Select(e => e.Data), Is.EqualTo(new[] { new byte[] { 1 }, new byte[] { 9, 9, 9 } }));
        Assert.That(game.ReadByte(), Is.Not.EqualTo(-1), "the game's handle still reads");
    }

    [Test]
    public void TheCacheIndex_HeldByReaders_DoesNotStopACommit_AndAMomentaryHolderIsWaitedFor()
    {
        WriteTar("game/data/pack.tar", [("a.bin", new byte[] { 1 }), ("b.bin", new byte[] { 2, 2 })]);
        var mod = _dir.Write("mod/data/pack.tar/b.bin", [9, 9, 9]);
        var cache = _dir["cache"];
        string[] args = ["--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache];
        var first = CliRun.Run(["build", .. args, "--merge", "always"]);
        Assert.That(first.ExitCode, Is.Zero, first.ToString());
        var index = Path.Combine(cache, "index.bin");
        var committed = File.ReadAllBytes(index);

        // A reader as archiveemu reads the index (read, write and delete sharing), for a moment as it does: on Linux
        // the rename goes through at once; Wine (like Windows without POSIX rename) refuses a rename over an open file
        // even with delete sharing, so the commit retries until the reader is done.
        File.WriteAllBytes(mod, [8, 8, 8, 8]); // another version: a new entry to commit
        var reader = new FileStream(index, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var readerDone = Task.Run(async () => { await Task.Delay(300); reader.Dispose(); });
        var second = CliRun.Run(["build", .. args, "--merge", "always"]);
        readerDone.Wait();
        Assert.That(second.ExitCode, Is.Zero, second.ToString());
        Assert.That(File.ReadAllBytes(index), Is.Not.EqualTo(committed), "a new index was committed");
        committed = File.ReadAllBytes(index);

        // A program holding it without delete sharing for a moment (on Windows, a virus scanner): the commit waits.
        File.WriteAllBytes(mod, [7, 7, 7, 7, 7]);
        var holder = new FileStream(index, FileMode.Open, FileAccess.Read, FileShare.Read);
        var release = Task.Run(async () => { await Task.Delay(300); holder.Dispose(); });
        var third = CliRun.Run(["build", .. args, "--merge", "always"]);
        release.Wait();
        Assert.That(third.ExitCode, Is.Zero, third.ToString());
        Assert.That(File.ReadAllBytes(index), Is.Not.EqualTo(committed), "a new index was committed");

        var verify = CliRun.Run(["cache", "verify", "--cache", cache]);
        var output = _dir["out.tar"];
        var cat = CliRun.Run(["cat", .. args, "data/pack.tar", "-o", output]);
        Assert.That((verify.ExitCode, cat.ExitCode), Is.EqualTo((0, 0)), verify + "\n" + cat);
        Assert.That(verify.Out, Does.Contain("1 entries checked, 0 damaged"), "each build replaced the archive's entry");
        Assert.That(ReadTar(output)[1].Data, Is.EqualTo(new byte[] { 7, 7, 7, 7, 7 }));
    }

    [Test]
    public void TheCacheWriterLock_HeldByAnotherWriter_MakesABuildWait_WhileReadersGoOn()
    {
        if (ArchiveEmuProgram.Installed is not null) // the lock is released 500 ms in: a process's start can take that long
            Assert.Ignore("in-process only: the build must reach the lock within 500 ms, which a separate process may not");
        WriteTar("game/data/pack.tar", [("a.bin", new byte[] { 1 }), ("b.bin", new byte[] { 2, 2 })]);
        _dir.Write("mod/data/pack.tar/b.bin", [9, 9, 9]);
        var cache = _dir["cache"];
        string[] args = ["--game", _dir["game"], "--mod", _dir["mod"], "--cache", cache];
        Assert.That(CliRun.Run(["build", .. args, "--merge", "always"]).ExitCode, Is.Zero);

        // Another writer's lock: an exclusive open of the lock file (no sharing), as archiveemu takes it.
        var writer = new FileStream(Path.Combine(cache, "lock"), FileMode.Open, FileAccess.ReadWrite, FileShare.None);
        var output = _dir["out.tar"];
        var cat = CliRun.Run(["cat", .. args, "data/pack.tar", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, "readers never take the lock: " + cat);

        _dir.Write("mod/data/pack.tar/a.bin", [5]);
        var started = DateTime.UtcNow;
        var release = Task.Run(async () => { await Task.Delay(500); writer.Dispose(); });
        var build = CliRun.Run(["build", .. args, "--merge", "always"]);
        release.Wait();
        Assert.That(build.ExitCode, Is.Zero, build.ToString());
        Assert.That(DateTime.UtcNow - started, Is.GreaterThanOrEqualTo(TimeSpan.FromMilliseconds(400)), "the build waited for the lock");
        Assert.That(build.Error, Does.Contain($"archiveemu: warning: {Path.Combine(cache, "lock")}: another archiveemu process is writing this cache; "
                                              + "waiting up to 120 s for it to finish"), "the wait is said once when it starts (issue 18)");
        Assert.That(CliRun.Run(["cache", "verify", "--cache", cache]).ExitCode, Is.Zero);
    }

    private byte[] Cat(string game, string[] mods, string archive)
    {
        var output = _dir[$"cat-{Guid.NewGuid():N}.bin"];
        var result = CliRun.Run(["cat", "--game", game, .. mods.SelectMany(m => new[] { "--mod", m }), "--no-cache", archive, "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return File.ReadAllBytes(output);
    }

    private List<byte[]> WriteTar(string relative, IEnumerable<(string Name, byte[] Data)> entries)
    {
        var path = _dir[relative];
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var written = new List<byte[]>();
        using (var stream = File.Create(path))
        using (var writer = new TarWriter(stream, TarEntryFormat.Pax))
        {
            foreach (var (name, data) in entries)
            {
                writer.WriteEntry(new PaxTarEntry(TarEntryType.RegularFile, name) { DataStream = new MemoryStream(data) });
                written.Add(data);
            }
        }
        return written;
    }

    private static List<(string Name, byte[] Data)> ReadTar(string path)
    {
        var entries = new List<(string, byte[])>();
        using var stream = File.OpenRead(path);
        using var reader = new TarReader(stream);
        while (reader.GetNextEntry() is { } entry)
        {
            var data = new MemoryStream();
            entry.DataStream?.CopyTo(data);
            entries.Add((entry.Name, data.ToArray()));
        }
        return entries;
    }

    private List<string> Listing() =>
        Directory.EnumerateFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToList();
}
