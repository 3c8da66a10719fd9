using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>Issue 18: deleting an entry that is not there is an error in every format; an index far past the end is warned about.</summary>
public sealed class IndexPastTheEndTests
{
    private TempDirectory _dir = null!;
    private string[] _gameArgs = [];

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("index-past-end");
        _dir.Write("game/data/voice.afs", AfsTestWriter.Write(Enumerable.Range(0, 8).Select(i => (byte[]?)TestData.Random(i, 1000 + i)).ToArray()));
        _gameArgs = ["--game", _dir["game"], "--mod", _dir["mods/m"], "--no-cache"];
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void Build_AfsDeleteOfAnIndexPastTheEnd_FailsNamingIt_InsteadOfAddingEmptySlots()
    {
        _dir.Write("mods/m/data/voice.afs/99.del", []);
        var result = CliRun.Run(["build", .. _gameArgs]);
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Does.Contain("  failed     ").And.Contain("cannot delete entry 99 (from m): no such entry; the archive has 8 entries (0 to 7)"),
            result.ToString());
        Assert.That(result.Out, Does.Not.Contain("91 added"));
        Assert.That(result.Error, Is.EqualTo("archiveemu build: 1 of 1 archives failed (data/voice.afs); a mod changes what the archive does not have? check the mod's files\n"));

        var cat = CliRun.Run(["cat", .. _gameArgs, "data/voice.afs", "-o", _dir["out.afs"]]);
        Assert.That(cat.ExitCode, Is.EqualTo(1), cat.ToString());
        Assert.That(cat.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1));
        Assert.That(cat.Error, Does.Contain("cannot delete entry 99 (from m): no such entry"));
        Assert.That(File.Exists(_dir["out.afs"]), Is.False);
    }

    [Test]
    public void Build_AfsIndexFarPastTheEnd_IsBuiltWithAWarning_InTextAndJson()
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 100));
        const string warning = "data/voice.afs: entry 2000 (from m) adds 1992 empty slots after the 8 entries of the original; a typo in the index?";
        var text = CliRun.Run(["build", .. _gameArgs]);
        Assert.That(text.ExitCode, Is.Zero, text.ToString());
        Assert.That(text.Out, Does.Contain($"\nwarning    {warning}\n"), text.ToString());
        var json = CliRun.Run(["build", .. _gameArgs, "--json"]);
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("warnings").EnumerateArray().Select(w => w.GetString()), Is.EqualTo(new[] { warning }));
    }

    [Test]
    public void Build_AfsEntryJustPastTheEnd_HasNoWarning()
    {
        _dir.Write("mods/m/data/voice.afs/9.bin", TestData.Random(9, 100));
        var json = CliRun.Run(["build", .. _gameArgs, "--json"]);
        Assert.That(json.ExitCode, Is.Zero, json.ToString());
        using var doc = JsonDocument.Parse(json.Out);
        Assert.That(doc.RootElement.GetProperty("warnings").GetArrayLength(), Is.Zero);
    }

    private const string FarIndexWarning =
        "data/voice.afs: entry 2000 (from m) adds 1992 empty slots after the 8 entries of the original; a typo in the index?";

    [TestCase("no cache")]
    [TestCase("merged in the cache")] // served from the merged copy: the archive's entries are not otherwise needed
    public void Cat_AfsIndexFarPastTheEnd_WarnsOnStderr_AndWritesTheSameBytes(string cache)
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 100));
        string[] gameArgs = cache == "no cache" ? _gameArgs : ["--game", _dir["game"], "--mod", _dir["mods/m"], "--cache", _dir["cache"]];
        if (cache != "no cache")
            Assert.That(CliRun.Run(["build", .. gameArgs, "--merge", "always"]).ExitCode, Is.Zero);
        var result = CliRun.Run(["cat", .. gameArgs, "data/voice.afs", "-o", _dir["out.afs"]]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error.TrimEnd().Split('\n'), Is.EqualTo(new[] { $"archiveemu: warning: {FarIndexWarning}" }), result.ToString());
        Assert.That(result.Out, Is.Empty);
        var written = File.ReadAllBytes(_dir["out.afs"]);
        Assert.That(written, Is.EqualTo(Emulated("data/voice.afs")), "the bytes the library serves, warning or not");
        var entries = AfsIndependentReader.Read(_dir["out.afs"]);
        Assert.That(entries, Has.Count.EqualTo(2001));
        Assert.That(entries[2000].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(TestData.Random(9, 100))));
    }

    [TestCase("text")]
    [TestCase("json")]
    public void Ls_AfsIndexFarPastTheEnd_WarnsOnStderr_AndListsAsBefore(string format)
    {
        _dir.Write("mods/m/data/voice.afs/2000.bin", TestData.Random(9, 100));
        var result = CliRun.Run(["ls", .. _gameArgs, "data/voice.afs", .. format == "json" ? new[] { "--json" } : []]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Error.TrimEnd().Split('\n'), Is.EqualTo(new[] { $"archiveemu: warning: {FarIndexWarning}" }), result.ToString());
        Assert.That(result.Out, Does.Not.Contain("warning").And.Not.Contain("typo"));
        if (format == "json")
        {
            using var doc = JsonDocument.Parse(result.Out);
            Assert.That(doc.RootElement.GetProperty("entries").GetArrayLength(), Is.EqualTo(2001));
        }
        else
        {
            var lines = result.Out.TrimEnd().Split('\n');
            Assert.That(lines[0], Does.StartWith("data/voice.afs  afs  2001 entries  "));
            Assert.That(lines, Has.Length.EqualTo(2 + 2001));
        }
    }

    [Test]
    public void CatAndLs_AfsEntryJustPastTheEnd_SayNothing()
    {
        _dir.Write("mods/m/data/voice.afs/9.bin", TestData.Random(9, 100));
        var cat = CliRun.Run(["cat", .. _gameArgs, "data/voice.afs", "-o", _dir["out.afs"]]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(cat.Error, Is.Empty);
        var ls = CliRun.Run(["ls", .. _gameArgs, "data/voice.afs"]);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Error, Is.Empty);
    }

    /// <summary>The bytes at <paramref name="relative"/> as the library serves them, without the CLI.</summary>
    private byte[] Emulated(string relative)
    {
        using var file = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(_dir["game"], [_dir["mods/m"]])).OpenFile(relative);
        var bytes = new byte[file.Length];
        for (long at = 0; at < file.Length;)
            at += file.Read(at, bytes.AsSpan((int)at));
        return bytes;
    }
}
