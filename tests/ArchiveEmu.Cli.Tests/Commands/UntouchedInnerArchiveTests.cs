using System.Text;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 32: <c>cat ARCHIVE/ENTRY</c> through an archive inside an emulated archive that no mod changes inside (it was "no entry"),
/// at any depth, by index where the format addresses by index, and <c>ls</c> of such an archive (it was "no archive at route");
/// bytes checked against the test's own writers and readers.
/// </summary>
public sealed class UntouchedInnerArchiveTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-cat-inner");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    // Only the font mod: EN.CPK is emulated, FD007_003.ARC and BGM_42.AWB inside it are not touched.
    private byte[] CatPersona(string path)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}"];
        var result = CliRun.Run("cat", "--game", PersonaSample.Game, "--mod", PersonaSample.Mod("essentials-font"), "--no-cache", path, "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return File.ReadAllBytes(output);
    }

    private static byte[] OriginalEntry(string name) => PersonaSample.Entries(Path.Combine(PersonaSample.Game, "CPK/EN.CPK"))[name];

    [Test]
    public void Cat_AnEntryOfAPakNoModTouches_InsideAnEmulatedCpk_IsTheOriginalsBytes()
    {
        var pak = _dir.Write("original.arc", OriginalEntry("FIELD/PACK/FD007_003.ARC"));
        var original = PakIndependentReader.Read(pak, "V1").Single(m => m.Name == "f007.bf");
        var served = CatPersona("CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/f007.bf");
        Assert.That((served.Length, AfsIndependentReader.Sha256(served)), Is.EqualTo((original.Size, original.Sha256)));
    }

    [Test]
    public void Cat_AnAwbEntryByIndex_InsideAnEmulatedCpk_IsTheOriginalsBytes()
    {
        var awb = _dir.Write("original.awb", OriginalEntry("SOUND/BGM_42.AWB"));
        var original = AwbIndependentReader.Read(awb).Entries[0];
        var served = CatPersona("CPK/EN.CPK/SOUND/BGM_42.AWB/0");
        Assert.That((served.Length, AfsIndependentReader.Sha256(served)), Is.EqualTo((original.Size, original.Sha256)));
    }

    [Test]
    public void Cat_ThroughACrilaylaStoredAfsAndAnAfsInsideIt_ByIndex_IsTheInnermostEntry()
    {
        var innermost = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("deep inside\n", 300)));
        var inner = AfsTestWriter.Write([innermost, TestData.Random(3, 700)]);
        var middle = AfsTestWriter.Write([TestData.Random(4, 900), inner]);
        var cpk = _dir.Write("game/data/outer.cpk", CpkTestWriter.WriteNamed(
            [new("DATA", "middle.afs", middle, Compress: true), new("DATA", "other.bin", TestData.Random(5, 400))]));
        Assert.That(CpkIndependentReader.Read(cpk).Entries.Single(e => e.Path == "DATA/middle.afs").Compressed, Is.True, "stored CRILAYLA");
        _dir.Write("mod/data/outer.cpk/DATA/other.bin", TestData.Random(6, 500)); // the CPK is emulated; middle.afs is not touched

        var output = _dir["out"];
        var result = CliRun.Run("cat", "--game", _dir["game"], "--mod", _dir["mod"], "--no-cache", "data/outer.cpk/DATA/middle.afs/1/0", "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(output), Is.EqualTo(innermost));
    }

    [Test]
    public void Ls_APakNoModTouches_InsideAnEmulatedCpk_ListsTheOriginalsEntries()
    {
        var bytes = OriginalEntry("FIELD/PACK/FD007_003.ARC");
        var pak = _dir.Write("original.arc", bytes);
        var ls = CliRun.Run("ls", "--game", PersonaSample.Game, "--mod", PersonaSample.Mod("essentials-font"), "--no-cache",
            "CPK/EN.CPK/FIELD/PACK/FD007_003.ARC", "--json");
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        using var doc = System.Text.Json.JsonDocument.Parse(ls.Out);
        Assert.That((doc.RootElement.GetProperty("format").GetString(), doc.RootElement.GetProperty("size").GetInt64()), Is.EqualTo(("pak", (long)bytes.Length)));
        var listed = doc.RootElement.GetProperty("entries").EnumerateArray()
            .Select(e => (e.GetProperty("name").GetString(), e.GetProperty("size").GetInt64(), e.GetProperty("state").GetString()));
        Assert.That(listed, Is.EqualTo(PakIndependentReader.Read(pak, "V1").Select(m => ((string?)m.Name, m.Size, (string?)"original"))));
    }

    [Test]
    public void Cat_BelowAnEntryThatIsNoArchive_IsOneLineNamingIt()
    {
        var result = CliRun.Run("cat", "--game", PersonaSample.Game, "--mod", PersonaSample.Mod("essentials-font"), "--no-cache",
            "CPK/EN.CPK/FONT/FONT0.FNT/x", "-o", _dir["out"]);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(result.Error, Is.EqualTo("archiveemu cat: CPK/EN.CPK: entry 'FONT/FONT0.FNT' is no archive ArchiveEmu knows, so nothing is below it ('x')\n"));
    }

    [Test]
    public void Cat_AMissingEntryOfAnUntouchedInnerArchive_NamesThatArchive()
    {
        var result = CliRun.Run("cat", "--game", PersonaSample.Game, "--mod", PersonaSample.Mod("essentials-font"), "--no-cache",
            "CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/nope.bf", "-o", _dir["out"]);
        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(result.Error, Is.EqualTo("archiveemu cat: CPK/EN.CPK/FIELD/PACK/FD007_003.ARC: no entry 'nope.bf' (the archive has 3 entries; list them with archiveemu ls)\n"));
    }
}
