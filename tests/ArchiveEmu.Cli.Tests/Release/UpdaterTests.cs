using ArchiveEmu.Cli.Release;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Release;

public class UpdaterTests
{
    private const string Changes = "# Changes\n\n## 99.0.0\n\n- the new one\n\n## 0.2.0\n\n- what 0.2.0 brought\n\n## 0.1.0\n\n- old\n";

    private FakeReleaseServer _server = null!;
    private TempDirectory _installed = null!;
    private string _program = null!;
    private readonly byte[] _oldProgram = FakeReleaseServer.Script("0.1.0");

    [SetUp]
    public void SetUp()
    {
        LinuxOnly.Require("the release server is reached with curl, and the program is a shell script");
        _server = new FakeReleaseServer();
        _installed = new TempDirectory("installed");
        _program = _installed.Write("bin/archiveemu", _oldProgram);
        if (OperatingSystem.IsLinux())
            File.SetUnixFileMode(_program, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
    }

    [TearDown]
    public void TearDown()
    {
        _server?.Dispose();
        _installed?.Dispose();
    }

    [Test]
    public void Check_says_up_to_date_when_the_latest_is_the_installed_version()
    {
        _server.Publish("0.1.0", _oldProgram, Changes);
        var (exit, output) = Check("0.1.0");
        Assert.That(exit, Is.EqualTo(0));
        Assert.That(output, Is.EqualTo($"archiveemu 0.1.0 is up to date (the latest at {Base})\n"));
    }

    [Test]
    public void Check_says_a_newer_release_exists_with_exit_10()
    {
        _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), Changes);
        var (exit, output) = Check("0.2.0-dev+abc1234");
        Assert.That(exit, Is.EqualTo(Cli.Release.Updater.NewerExists));
        Assert.That(output, Is.EqualTo("archiveemu 99.0.0 is out (this is 0.2.0-dev+abc1234): 'archiveemu update' installs it\n"));
    }

    [Test]
    public void A_build_ahead_of_the_latest_release_is_not_taken_back()
    {
        _server.Publish("0.1.0", _oldProgram, Changes);
        var output = new StringWriter();
        Assert.That(Updater("0.2.0-dev+abc1234", output).Update(_program, FakeReleaseServer.Rid), Is.EqualTo(0));
        Assert.That(output.ToString(), Does.Contain("is newer than the latest release"));
        Assert.That(File.ReadAllBytes(_program), Is.EqualTo(_oldProgram));
    }

    [Test]
    public void Update_puts_the_new_program_in_place_and_prints_what_changed_since_the_installed_version()
    {
        var newProgram = FakeReleaseServer.Script("99.0.0");
        _server.Publish("99.0.0", newProgram, Changes);
        var output = new StringWriter();
        Assert.That(Updater("0.1.0", output).Update(_program, FakeReleaseServer.Rid), Is.EqualTo(0));
        Assert.That(File.ReadAllBytes(_program), Is.EqualTo(newProgram));
        if (OperatingSystem.IsLinux())
            Assert.That(File.GetUnixFileMode(_program) & UnixFileMode.UserExecute, Is.EqualTo(UnixFileMode.UserExecute));
        Assert.That(output.ToString(), Is.EqualTo(
            $"archiveemu update: downloading archiveemu 99.0.0 for linux-x64 from {Base}\n" +
            $"archiveemu update: replaced {_program} (0.1.0 → 99.0.0)\n" +
            "What changed:\n## 99.0.0\n\n- the new one\n\n## 0.2.0\n\n- what 0.2.0 brought\n"));
        AssertNothingLeftBeside();
    }

    [Test]
    public void A_wrong_checksum_leaves_the_installed_program_as_it_was()
    {
        var archive = _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), Changes);
        var sums = Path.Combine(Path.GetDirectoryName(archive)!, "SHA256SUMS");
        File.WriteAllText(sums, File.ReadAllText(sums).Replace(File.ReadAllText(sums)[..8], "00000000"));
        AssertRefused<InvalidDataException>("is damaged or incomplete: its SHA-256 is");
    }

    [Test]
    public void A_cut_download_leaves_the_installed_program_as_it_was()
    {
        var archive = _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), Changes);
        var whole = File.ReadAllBytes(archive);
        File.WriteAllBytes(archive, whole[..(whole.Length / 2)]);
        AssertRefused<InvalidDataException>("archiveemu-99.0.0-linux-x64.tar.gz is damaged or incomplete");
    }

    [Test]
    public void A_corrupt_archive_with_a_matching_checksum_is_refused_unpacking()
    {
        var archive = _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), Changes);
        var bytes = File.ReadAllBytes(archive);
        for (var i = 20; i < bytes.Length - 8; i++)
            bytes[i] ^= 0x5A;
        File.WriteAllBytes(archive, bytes);
        _server.Sum("99.0.0");
        AssertRefused<InvalidDataException>("archiveemu-99.0.0-linux-x64.tar.gz cannot be unpacked");
    }

    [Test]
    public void A_program_that_does_not_start_is_not_put_in_place()
    {
        _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0", exit: 1), Changes);
        AssertRefused<IOException>("the downloaded program does not start here");
    }

    [Test]
    public void An_archive_for_another_machine_is_not_found()
    {
        _server.Publish("99.0.0", FakeReleaseServer.Script("99.0.0"), Changes);
        var e = Assert.Throws<InvalidDataException>(() => Updater("0.1.0", new StringWriter()).Update(_program, "linux-arm64"));
        Assert.That(e!.Message, Is.EqualTo("SHA256SUMS does not list archiveemu-99.0.0-linux-arm64.tar.gz"));
        Assert.That(File.ReadAllBytes(_program), Is.EqualTo(_oldProgram));
    }

    [Test]
    public void No_network_is_one_line_that_says_so()
    {
        ExternalTool.Require("curl");
        var updater = new Cli.Release.Updater(new ReleaseServer("http://127.0.0.1:1"), ReleaseVersion.TryParse("0.1.0")!, new StringWriter());
        var e = Assert.Throws<IOException>(() => updater.Check());
        Assert.That(e!.Message, Does.StartWith("no network connection to http://127.0.0.1:1/latest (curl: (7)"));
        Assert.That(e.Message, Does.Not.Contain('\n'));
    }

    [Test]
    public void A_latest_that_names_no_version_is_refused()
    {
        File.WriteAllText(Path.Combine(_server.Folder, "latest"), "<html>not found</html>\n");
        var e = Assert.Throws<InvalidDataException>(() => Updater("0.1.0", new StringWriter()).Check());
        Assert.That(e!.Message, Is.EqualTo($"{Base}/latest does not name a version ('<html>not found</html>')"));
    }

    private string Base => _server.Url.TrimEnd('/');

    private Cli.Release.Updater Updater(string installed, TextWriter output) =>
        new(new ReleaseServer(_server.Url), ReleaseVersion.TryParse(installed)!, output);

    private (int Exit, string Output) Check(string installed)
    {
        var output = new StringWriter();
        var exit = Updater(installed, output).Check();
        return (exit, output.ToString().ReplaceLineEndings("\n"));
    }

    private void AssertRefused<T>(string said) where T : Exception
    {
        var e = Assert.Throws<T>(() => Updater("0.1.0", new StringWriter()).Update(_program, FakeReleaseServer.Rid));
        Assert.That(e!.Message, Does.Contain(said));
        Assert.That(File.ReadAllBytes(_program), Is.EqualTo(_oldProgram), "the installed program is untouched");
        AssertNothingLeftBeside();
    }

    private void AssertNothingLeftBeside() =>
        Assert.That(Directory.GetFileSystemEntries(Path.GetDirectoryName(_program)!).Select(Path.GetFileName), Is.EqualTo(new[] { "archiveemu" }));
}
