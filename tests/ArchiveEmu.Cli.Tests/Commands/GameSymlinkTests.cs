using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 17: game data moved to another drive and left as symlinks (a Steam library on a second disk). A symlink inside
/// the game folder, to a file or a folder outside it, is followed: build, cat and ls give exactly what the same game
/// without links gives. A symlink in a mod leading out of the mod stays refused.
/// </summary>
public sealed class GameSymlinkTests
{
    // Paths of the linked game: data/textures.afs (modded) is a relative file link, data/voice.afs (untouched) an absolute
    // one, movies/ a folder link holding a modded AFS, an untouched ZIP and a plain file; data/gone.afs leads nowhere;
    // data/data.cpk (modded by hd-textures) is a plain file in both.
    private static readonly string[] Visible =
        ["data/data.cpk", "data/readme.txt", "data/textures.afs", "data/ui.zip", "data/voice.afs", "movies/cutscenes.afs", "movies/intro.zip", "movies/notes.txt"];

    private TempDirectory _dir = null!;
    private string[] _mods = null!;

    [SetUp]
    public void CreateGames()
    {
        LinuxOnly.RequireSymlinks();
        _dir = new TempDirectory("cli-symlink");
        var fixture = CliRun.Fixture("game");
        _mods = [CliRun.Fixture("mods/hd-textures"), CliRun.Fixture("mods/ui-fix"), _dir["mods/movie-fix"]];
        _dir.Write("mods/movie-fix/movies/cutscenes.afs/2.dds", [.. Enumerable.Range(0, 3000).Select(i => (byte)(i * 7))]);

        // The same content twice: "plain" with real files, "linked" with the bytes on disk2 and symlinks in the game.
        foreach (var file in Directory.EnumerateFiles(fixture, "*", SearchOption.AllDirectories))
            _dir.Write(Path.Combine("plain", Path.GetRelativePath(fixture, file)), File.ReadAllBytes(file));
        _dir.Write("plain/movies/cutscenes.afs", File.ReadAllBytes(Path.Combine(fixture, "data/textures.afs")));
        _dir.Write("plain/movies/intro.zip", File.ReadAllBytes(Path.Combine(fixture, "data/ui.zip")));
        _dir.Write("plain/movies/notes.txt", "subtitles on\n"u8.ToArray());

        _dir.Write("linked/data/readme.txt", File.ReadAllBytes(_dir["plain/data/readme.txt"]));
        _dir.Write("linked/data/ui.zip", File.ReadAllBytes(_dir["plain/data/ui.zip"]));
        _dir.Write("linked/data/data.cpk", File.ReadAllBytes(_dir["plain/data/data.cpk"]));
        _dir.Write("disk2/textures.afs", File.ReadAllBytes(_dir["plain/data/textures.afs"]));
        _dir.Write("disk2/voice.afs", File.ReadAllBytes(_dir["plain/data/voice.afs"]));
        foreach (var name in new[] { "cutscenes.afs", "intro.zip", "notes.txt" })
            _dir.Write($"disk2/movies/{name}", File.ReadAllBytes(_dir[$"plain/movies/{name}"]));
        File.CreateSymbolicLink(_dir["linked/data/textures.afs"], "../../disk2/textures.afs");
        File.CreateSymbolicLink(_dir["linked/data/voice.afs"], _dir["disk2/voice.afs"]);
        Directory.CreateSymbolicLink(_dir["linked/movies"], _dir["disk2/movies"]);
        File.CreateSymbolicLink(_dir["linked/data/gone.afs"], _dir["disk2/missing.afs"]);
    }

    [TearDown]
    public void DeleteGames() => _dir?.Dispose();

    [Test]
    public void Cat_EveryFileBehindASymlink_IsWhatTheSameGameWithoutSymlinksGives()
    {
        foreach (var file in Visible)
            Assert.That(Cat("linked", file), Is.EqualTo(Cat("plain", file)), file);
        foreach (var (file, target) in new[] { ("data/voice.afs", "disk2/voice.afs"), ("movies/intro.zip", "disk2/movies/intro.zip"), ("movies/notes.txt", "disk2/movies/notes.txt") })
            Assert.That(Cat("linked", file), Is.EqualTo(File.ReadAllBytes(_dir[target])), $"{file}, untouched, is its target");

        // The mod reaches the archive inside the linked folder by the link's name; checked by a reader that shares nothing with ours.
        var output = _dir.Write("cutscenes.afs", Cat("linked", "movies/cutscenes.afs"));
        var entries = AfsIndependentReader.Read(output);
        var original = AfsIndependentReader.Read(_dir["disk2/movies/cutscenes.afs"]);
        Assert.That(entries[2].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(File.ReadAllBytes(_dir["mods/movie-fix/movies/cutscenes.afs/2.dds"]))));
        Assert.That(entries.Where((_, i) => i != 2).Select(e => e.Sha256), Is.EqualTo(original.Where((_, i) => i != 2).Select(e => e.Sha256)));
        var textures = AfsIndependentReader.Read(_dir.Write("textures.afs", Cat("linked", "data/textures.afs")));
        Assert.That(textures[5].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(_mods[0], "data/textures.afs/0005_hero.dds")))));
    }

    [Test]
    public void Cat_UntouchedFilesBehindSymlinks_WithAModThatTouchesNoLink_AreTheirTargets()
    {
        Directory.CreateDirectory(_dir["mods/empty"]);
        foreach (var (file, target) in new[] { ("data/voice.afs", "disk2/voice.afs"), ("movies/intro.zip", "disk2/movies/intro.zip"), ("movies/notes.txt", "disk2/movies/notes.txt") })
        {
            var output = _dir["untouched.bin"];
            var result = CliRun.Run("cat", "--game", _dir["linked"], "--mod", _dir["mods/empty"], file, "-o", output);
            Assert.That(result.ExitCode, Is.Zero, $"{file}: {result}");
            Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(_dir[target])), file);
        }
    }

    [Test]
    public void Ls_ArchivesBehindSymlinks_ListTheirTargetsEntries()
    {
        foreach (var file in new[] { "data/textures.afs", "data/voice.afs", "movies/cutscenes.afs", "movies/intro.zip" })
        {
            var linked = Run("ls", "linked", file, "--json");
            Assert.That(linked.ExitCode, Is.Zero, linked.ToString());
            Assert.That(linked.Out, Is.EqualTo(Run("ls", "plain", file, "--json").Out), file);
            using var doc = JsonDocument.Parse(linked.Out);
            Assert.That(doc.RootElement.GetProperty("entries").GetArrayLength(), Is.GreaterThan(0), file);
        }
    }

    [Test]
    public void Build_AndMergedCat_OfArchivesWhoseOriginalsAreSymlinks_AreThoseOfTheGameWithoutSymlinks()
    {
        var linked = Run("build", "linked", "--json", "--no-cache");
        Assert.That(linked.ExitCode, Is.Zero, linked.ToString());
        using (var doc = JsonDocument.Parse(linked.Out))
        using (var plain = JsonDocument.Parse(Run("build", "plain", "--json", "--no-cache").Out))
        {
            static string[] Summary(JsonDocument d) => d.RootElement.GetProperty("archives").EnumerateArray()
                .Select(a => $"{a.GetProperty("path")} {a.GetProperty("replaced")} {a.GetProperty("added")} {a.GetProperty("deleted")} {a.GetProperty("size_after")}").ToArray();
            Assert.That(Summary(doc), Has.Length.EqualTo(3));
            Assert.That(Summary(doc), Is.EqualTo(Summary(plain)));
        }

        // The merged file cache, built from the linked originals, serves the same bytes.
        var merged = Run("build", "linked", "--merge", "always", "--cache", _dir["cache"]);
        Assert.That(merged.ExitCode, Is.Zero, merged.ToString());
        foreach (var file in new[] { "data/textures.afs", "movies/cutscenes.afs" })
        {
            var output = _dir[$"merged-{Path.GetFileName(file)}"];
            var cat = CliRun.Run(["cat", "--game", _dir["linked"], .. ModArgs, "--cache", _dir["cache"], file, "-o", output]);
            Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
            Assert.That(File.ReadAllBytes(output), Is.EqualTo(Cat("plain", file)), file);
        }
        Assert.That(Directory.EnumerateFiles(_dir["cache"], "*", SearchOption.AllDirectories), Is.Not.Empty, "the cache was used");
    }

    [Test]
    public void DanglingGameSymlink_CatAndLs_ExitOneWithOneLineNamingIt()
    {
        foreach (var command in new[] { "cat", "ls" })
        {
            var result = Run(command, "linked", "data/gone.afs");
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), result.ToString());
            Assert.That(result.Error, Does.Contain("gone.afs").And.Contain("a symlink to").And.Contain("leads nowhere"), result.ToString());
        }
        Assert.That(Run("build", "linked").ExitCode, Is.Zero, "a dangling link no mod targets is no reason to fail a build");

        _dir.Write("mods/broken/data/gone.afs/1.dds", [1]);
        var targeted = CliRun.Run("build", "--game", _dir["linked"], "--mod", _dir["mods/broken"]);
        Assert.That(targeted.ExitCode, Is.EqualTo(1), targeted.ToString());
        Assert.That(targeted.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), targeted.ToString());
        Assert.That(targeted.Error, Does.Contain("gone.afs").And.Contain("leads nowhere").And.Contain("mods/broken"), targeted.ToString());
    }

    [Test]
    public void ModSymlinkLeadingOutOfTheMod_IsStillRefused_EvenToTheGamesOwnFiles()
    {
        Directory.CreateDirectory(_dir["evil/data/textures.afs"]);
        File.CreateSymbolicLink(_dir["evil/data/textures.afs/2.dds"], _dir["disk2/voice.afs"]);
        Directory.CreateDirectory(_dir["evil-folder"]);
        Directory.CreateSymbolicLink(_dir["evil-folder/movies"], _dir["disk2/movies"]);
        foreach (var mod in new[] { "evil", "evil-folder" })
            foreach (var args in new[] { new[] { "build" }, ["cat", "data/textures.afs"], ["ls", "data/textures.afs"] })
            {
                var result = CliRun.Run([args[0], "--game", _dir["linked"], "--mod", _dir[mod], .. args[1..]]);
                Assert.That(result.ExitCode, Is.EqualTo(1), $"{mod}: {result}");
                Assert.That(result.Error, Does.Contain("leads outside"), $"{mod}: {result}");
                Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), result.ToString());
            }
    }

    private string[] ModArgs => _mods.SelectMany(m => new[] { "--mod", m }).ToArray();

    private CliResult Run(string command, string game, params string[] rest) =>
        CliRun.Run([command, "--game", _dir[game], .. ModArgs, .. rest]);

    private byte[] Cat(string game, string file)
    {
        var output = _dir[$"cat-{Guid.NewGuid():N}"];
        var result = Run("cat", game, "--no-cache", file, "-o", output);
        Assert.That(result.ExitCode, Is.Zero, $"cat {game}/{file}: {result}");
        var bytes = File.ReadAllBytes(output);
        File.Delete(output);
        return bytes;
    }
}
