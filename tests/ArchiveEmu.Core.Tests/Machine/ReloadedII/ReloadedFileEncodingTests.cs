using System.Text;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>
/// Issue 48: Reloaded-II reads its JSON through a StreamReader that detects a BOM, and reads an invalid byte as U+FFFD. A BOM
/// skipped the mod ("Reloaded-II skips it too", which it does not) or failed the setup; a Latin-1 "Café" aborted every command
/// with a stack trace; a FIFO hung; a link to /dev/zero ran out of memory.
/// </summary>
public sealed class ReloadedFileEncodingTests
{
    private TempDirectory _dir = null!;
    private FakeProtonPrefix _p = null!;
    private string _hd = null!;

    [SetUp]
    public void CreateSetup()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        _dir = new TempDirectory("reloaded-encoding");
        _p = new FakeProtonPrefix(_dir.Path);
        _p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(_p.Game, "P5R.exe")), "hd");
        _hd = _p.Mod("hd-textures", "hd", "HD Textures", "2.1.0");
        FakeProtonPrefix.WriteFile(_hd, "Redirector/data/a.bin", [1]);
    }

    [TearDown]
    public void DeleteSetup() => _dir?.Dispose();

    private ReloadedSetup Read() => ReloadedSetup.Read(_p.Game, new ReloadedLocation(_p.ConfigFolder, _p.Prefix, "--reloaded-dir"));

    private static void Reencode(string file, Encoding encoding, bool bom)
    {
        var text = File.ReadAllText(file);
        File.WriteAllBytes(file, [.. bom ? encoding.GetPreamble() : [], .. encoding.GetBytes(text)]);
    }

    private static IEnumerable<TestCaseData> Encodings()
    {
        yield return new TestCaseData("UTF-8", new UTF8Encoding(true)).SetName("{m}(UTF-8 BOM)");
        yield return new TestCaseData("UTF-16LE", new UnicodeEncoding(false, true)).SetName("{m}(UTF-16 LE BOM)");
        yield return new TestCaseData("UTF-16BE", new UnicodeEncoding(true, true)).SetName("{m}(UTF-16 BE BOM)");
        yield return new TestCaseData("UTF-32LE", new UTF32Encoding(false, true)).SetName("{m}(UTF-32 LE BOM)");
    }

    [TestCaseSource(nameof(Encodings))]
    public void EveryReloadedFileWithABom_IsReadAsWithout(string name, Encoding encoding)
    {
        foreach (var file in new[] { Path.Combine(_hd, "ModConfig.json"), Path.Combine(_p.Apps, "p5r.exe", "AppConfig.json"), Path.Combine(_p.ConfigFolder, "ReloadedII.json") })
            Reencode(file, encoding, bom: true);

        var setup = Read();

        Assert.That(setup.Warnings, Is.Empty, name);
        Assert.That(setup.ModFolders, Is.EqualTo(new[] { _hd }));
        Assert.That(setup.Taken.Single().Mod.Title, Is.EqualTo("HD Textures 2.1.0"));
    }

    [Test]
    public void ALatin1ModName_IsReadWithTheReplacementCharacter_AsReloadedIIReadsIt()
    {
        var config = Path.Combine(_hd, "ModConfig.json");
        File.WriteAllBytes(config, Encoding.Latin1.GetBytes(File.ReadAllText(config).Replace("HD Textures", "Café")));
        var app = Path.Combine(_p.Apps, "p5r.exe", "AppConfig.json");
        File.WriteAllBytes(app, Encoding.Latin1.GetBytes(File.ReadAllText(app).Replace("Persona 5 Royal", "Persona 5 Royal é")));

        var setup = Read();

        Assert.That(setup.ModFolders, Is.EqualTo(new[] { _hd }));
        Assert.That(setup.Taken.Single().Mod.Title, Is.EqualTo("Caf\uFFFD 2.1.0"));
        Assert.That(setup.App.Name, Is.EqualTo("Persona 5 Royal \uFFFD"));
    }

    [Test]
    public void AModConfigThatIsAFifoOrALinkToADevice_IsSkippedWithOneLine_AndTheOtherModsServed()
    {
        var fifo = Path.Combine(_p.Mods, "fifo-mod", "ModConfig.json");
        Directory.CreateDirectory(Path.GetDirectoryName(fifo)!);
        Assert.That(ExternalTool.Run("mkfifo", fifo).ExitCode, Is.Zero);
        var zero = Path.Combine(_p.Mods, "zero-mod", "ModConfig.json");
        Directory.CreateDirectory(Path.GetDirectoryName(zero)!);
        File.CreateSymbolicLink(zero, "/dev/zero");

        var reading = Task.Run(Read);
        Assert.That(reading.Wait(TimeSpan.FromSeconds(60)), Is.True, "hung: waiting for a writer of the FIFO");
        var setup = reading.Result;
        Assert.That(setup.ModFolders, Is.EqualTo(new[] { _hd }));
        Assert.That(setup.Warnings, Is.EqualTo(new[]
        {
            $"{fifo}: a FIFO, not a regular file; not read; the mod is skipped",
            // a link out of the Mods folder (issue 48): skipped for that before its kind is looked at
            $"{zero}: leads out of the Mods folder {_p.Mods} (to /dev/zero); the mod is skipped, as a link out of a mod folder is",
        }));
    }

    [Test]
    public void AnAppConfigThatIsNotJson_NamesItsFile()
    {
        var app = Path.Combine(_p.Apps, "broken", "AppConfig.json");
        Directory.CreateDirectory(Path.GetDirectoryName(app)!);
        File.WriteAllText(app, "{ \"AppId\": ");

        var setup = Read();

        Assert.That(setup.Warnings.Single(), Does.StartWith($"{app}: not valid JSON (").And.EndWith("); Reloaded-II skips it too"));
    }
}
