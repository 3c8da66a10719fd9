using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>build, cat and ls on the sample game in fixtures/, checked byte for byte with an independent reader.</summary>
public sealed class ArchiveCommandsTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private static readonly string Ui = CliRun.Fixture("mods/ui-fix");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void Cat_ModdedAfs_EveryEntryIsWhatTheModsSay()
    {
        var output = _dir["textures.afs"];
        var result = CliRun.Run("cat", "--game", Game, "--mod", Hd, "--mod", Ui, "data/textures.afs", "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());

        var original = AfsIndependentReader.Read(Path.Combine(Game, "data/textures.afs"));
        var built = AfsIndependentReader.Read(output);
        string Sha(string mod, string file) => AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(mod, "data/textures.afs", file)));
        var expected = original.Select(e => e.Sha256).ToList();
        expected[1] = AfsIndependentReader.Sha256([]);            // ui-fix: 1.del
        expected[3] = Sha(Ui, "3_button_sheet.dds");              // both mods; ui-fix is later
        expected[5] = Sha(Hd, "0005_hero.dds");
        expected.Add(AfsIndependentReader.Sha256([]));            // slot 8: empty, grown through
        expected.Add(Sha(Hd, "9.dds"));
        Assert.That(built.Select(e => e.Sha256), Is.EqualTo(expected));
        Assert.That(built[9].Name, Is.EqualTo("9.dds"));
        Assert.That(built[3].Name, Is.EqualTo("tex03.dds"), "a replaced entry keeps its name");
        Assert.That(built[3].RecordSize, Is.EqualTo(4000), "and its name record has the new size");
    }

    [Test]
    public void Cat_ArchiveNoModTouches_IsByteIdenticalToTheOriginal()
    {
        var output = _dir["voice.afs"];
        Assert.That(CliRun.Run("cat", "--game", Game, "--mod", Hd, "data/voice.afs", "-o", output).ExitCode, Is.Zero);
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(Path.Combine(Game, "data/voice.afs"))));
    }

    [Test]
    public void Cat_UntouchedZip_PassesThroughAndUnzipAcceptsIt()
    {
        var output = _dir["ui.zip"];
        Assert.That(CliRun.Run("cat", "--game", Game, "--mod", Ui, "data/ui.zip", "-o", output).ExitCode, Is.Zero);
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(Path.Combine(Game, "data/ui.zip"))));
        var unzip = ExternalTool.Run("unzip", "-t", output);
        Assert.That(unzip.ExitCode, Is.Zero, unzip.ToString());
    }

    [Test]
    public void Cat_OverriddenPlainFile_IsTheModsFile()
    {
        var output = _dir["readme.txt"];
        Assert.That(CliRun.Run("cat", "--game", Game, "--mod", Hd, "--mod", Ui, "data/readme.txt", "-o", output).ExitCode, Is.Zero);
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(File.ReadAllBytes(Path.Combine(Ui, "data/readme.txt"))));
    }

    [Test]
    public void Build_Json_ReportsChangesConflictsAndByteSources()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Hd, "--mod", Ui, "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var archives = doc.RootElement.GetProperty("archives").EnumerateArray().ToArray();
        Assert.That(archives.Select(a => a.GetProperty("path").GetString()), Is.EquivalentTo(new[] { "data/data.cpk", "data/textures.afs" }));
        var cpk = archives.Single(a => a.GetProperty("path").GetString() == "data/data.cpk");
        Assert.That(cpk.GetProperty("replaced").GetInt32(), Is.EqualTo(1), "hd-textures' data/data.cpk/battle/hero.dds");
        Assert.That(cpk.GetProperty("bytes_from_loose").GetInt64(), Is.EqualTo(5000));
        var archive = archives.Single(a => a.GetProperty("path").GetString() == "data/textures.afs");
        Assert.That(archive.GetProperty("replaced").GetInt32(), Is.EqualTo(2));
        Assert.That(archive.GetProperty("added").GetInt32(), Is.EqualTo(2));
        Assert.That(archive.GetProperty("deleted").GetInt32(), Is.EqualTo(1));
        Assert.That(archive.GetProperty("bytes_from_loose").GetInt64(), Is.EqualTo(4000 + 7000 + 2500));
        Assert.That(archive.GetProperty("bytes_from_original").GetInt64() + archive.GetProperty("bytes_from_loose").GetInt64()
                    + archive.GetProperty("bytes_generated").GetInt64(), Is.EqualTo(archive.GetProperty("size_after").GetInt64()));
        var conflict = archive.GetProperty("conflicts").EnumerateArray().Single();
        Assert.That(conflict.GetProperty("entry").GetString(), Is.EqualTo("3"));
        Assert.That(conflict.GetProperty("winner").GetString(), Is.EqualTo("ui-fix"));
        Assert.That(doc.RootElement.GetProperty("overrides").EnumerateArray().Single().GetProperty("path").GetString(), Is.EqualTo("data/readme.txt"));
    }

    [Test]
    public void Build_Text_NamesTheConflictAndItsWinner()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Hd, "--mod", Ui);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out, Does.Contain("entry 3: hd-textures (mirror), ui-fix (mirror) -> ui-fix wins"));
        Assert.That(result.Out, Does.Contain("2 replaced, 2 added, 1 deleted"));
    }

    [Test]
    public void Ls_Json_ListsEveryEntryWithStateAndOrigin()
    {
        var result = CliRun.Run("ls", "--game", Game, "--mod", Hd, "--mod", Ui, "data/textures.afs", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var entries = doc.RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => (e.GetProperty("index").GetInt32(), e.GetProperty("state").GetString(), e.GetProperty("origin").GetString())).ToArray();
        Assert.That(entries, Has.Length.EqualTo(10));
        Assert.That(entries[1], Is.EqualTo((1, "deleted", "ui-fix")));
        Assert.That(entries[3], Is.EqualTo((3, "replaced", "ui-fix")));
        Assert.That(entries[5], Is.EqualTo((5, "replaced", "hd-textures")));
        Assert.That(entries[9], Is.EqualTo((9, "added", "hd-textures")));
        Assert.That(entries[0], Is.EqualTo((0, "original", "original")));
    }

    [Test]
    public void BadInput_MissingFolderCorruptArchiveOrEscape_ExitsOneWithOneLine()
    {
        var corruptGame = _dir.Write("game/data/textures.afs", [.. "AFS\0"u8, 0xFF, 0xFF, 0xFF, 0x00]);
        _dir.Write("mod/data/textures.afs/1.dds", [1]);
        var cases = new[]
        {
            (new[] { "build", "--game", _dir["nogame"], "--mod", Hd }, "nogame"),
            (new[] { "build", "--game", _dir["game"], "--mod", _dir["mod"] }, "textures.afs"),
            (new[] { "cat", "--game", Game, "--mod", Hd, "../../../etc/passwd" }, "etc/passwd"),
            (new[] { "ls", "--game", Game, "--mod", Hd, "data/missing.afs" }, "missing.afs"),
            (new[] { "ls", "--game", Game, "--mod", Hd, "data/readme.txt" }, "readme.txt"),
        };
        Assert.That(File.Exists(corruptGame));
        foreach (var (args, named) in cases)
        {
            var result = CliRun.Run(args);
            Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
            Assert.That(result.Error.TrimEnd().Split('\n'), Has.Length.EqualTo(1), result.ToString());
            Assert.That(result.Error, Does.Contain(named));
        }
    }

    [Test]
    public void Usage_MissingModOrArchive_ExitsTwo()
    {
        Assert.That(CliRun.Run("build", "--game", Game).ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run("cat", "--game", Game, "--mod", Hd).ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run("ls", "--game", Game, "--mod", Hd, "a", "b").ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run("build", "--game", Game, "--mod", Hd, "--merge", "--compress", "zstd").ExitCode, Is.EqualTo(2));
        Assert.That(CliRun.Run("build", "--game", Game, "--mod", Hd, "--merge", "sometimes").ExitCode, Is.EqualTo(2));
    }
}
