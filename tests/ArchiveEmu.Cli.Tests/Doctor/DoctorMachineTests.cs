using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 32, <c>archiveemu doctor</c> without a game: the machine's checks (/dev/fuse, fusermount3; libfuse3 and passthrough as facts) pass
/// on what this machine has and fail, with their fix, on what a test points them at; text and JSON say the same.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class DoctorMachineTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("FUSE");
        _dir = new TempDirectory("cli-doctor-machine");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    /// <summary>A normal user's machine with nothing a mount needs (no device, no fusermount3 on PATH), nor libfuse3, which none needs since issue 34.</summary>
    private Cli.Doctor.DoctorMachine Bare() => DoctorRun.Machine(_dir["home"]) with
    {
        DevFuse = _dir["dev/fuse"],
        SearchPath = Directory.CreateDirectory(_dir["bin"]).FullName,
        IsRoot = false,
        KernelRelease = "6.1.0-28-amd64",
        LibFuse = "libfuse3-not-here.so.3",
        Running = new Cli.Doctor.RunningArchiveEmu("0.2.0-test", "/opt/test/archiveemu", null),
    };

    [Test]
    public void Doctor_NothingAMountNeeds_OneFailedLineEachWithItsFix_Exit1()
    {
        var result = DoctorRun.Run(Bare(), "--no-cache");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Is.EqualTo(
            "info archiveemu          0.2.0-test from /opt/test/archiveemu\n" +
            $"FAIL /dev/fuse           {_dir["dev/fuse"]} is missing (no fuse kernel module, or a container started without the device)\n" +
            "     fix:                load the module (sudo modprobe fuse); in a container, start it with --device /dev/fuse\n" +
            "FAIL fusermount3         fusermount3 is not on PATH: a normal user cannot mount without it\n" +
            "     fix:                install it (Debian/Ubuntu: sudo apt-get install fuse3; SteamOS has it)\n" +
            "info libfuse3            libfuse3-not-here.so.3 not found: install libfuse3 (Debian/Ubuntu: apt-get install fuse3 libfuse3-3); only ArchiveEmu:Fuse=libfuse needs it (the host speaks the FUSE protocol itself)\n" +
            "info kernel passthrough  Linux 6.1.0-28-amd64 is older than 6.9; as a normal user the host mounts through fusermount3, without it (a speed-up only: without it the host serves every read)\n" +
            "info cache folder        --no-cache: layouts are worked out again at every start, nothing is stored\n" +
            "a mount would fail here: /dev/fuse, fusermount3\n"));
        Assert.That(result.Error, Is.EqualTo($"archiveemu doctor: a mount would fail here: {_dir["dev/fuse"]} is missing (no fuse kernel module, "
            + "or a container started without the device); fusermount3 is not on PATH: a normal user cannot mount without it\n"));
    }

    [Test]
    public void Doctor_Json_TheSameChecksAsNameOkBlockingDetailFix_OkFalse()
    {
        var result = DoctorRun.Run(Bare(), "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.EqualTo(1), result.ToString());
        Assert.That(result.Out, Is.EqualTo($$"""
            {
              "ok": false,
              "checks": [
                {
                  "name": "archiveemu",
                  "ok": true,
                  "blocking": false,
                  "detail": "0.2.0-test from /opt/test/archiveemu",
                  "fix": null
                },
                {
                  "name": "/dev/fuse",
                  "ok": false,
                  "blocking": true,
                  "detail": "{{_dir["dev/fuse"]}} is missing (no fuse kernel module, or a container started without the device)",
                  "fix": "load the module (sudo modprobe fuse); in a container, start it with --device /dev/fuse"
                },
                {
                  "name": "fusermount3",
                  "ok": false,
                  "blocking": true,
                  "detail": "fusermount3 is not on PATH: a normal user cannot mount without it",
                  "fix": "install it (Debian/Ubuntu: sudo apt-get install fuse3; SteamOS has it)"
                },
                {
                  "name": "libfuse3",
                  "ok": true,
                  "blocking": false,
                  "detail": "libfuse3-not-here.so.3 not found: install libfuse3 (Debian/Ubuntu: apt-get install fuse3 libfuse3-3); only ArchiveEmu:Fuse=libfuse needs it (the host speaks the FUSE protocol itself)",
                  "fix": null
                },
                {
                  "name": "kernel passthrough",
                  "ok": true,
                  "blocking": false,
                  "detail": "Linux 6.1.0-28-amd64 is older than 6.9; as a normal user the host mounts through fusermount3, without it (a speed-up only: without it the host serves every read)",
                  "fix": null
                },
                {
                  "name": "cache folder",
                  "ok": true,
                  "blocking": false,
                  "detail": "--no-cache: layouts are worked out again at every start, nothing is stored",
                  "fix": null
                }
              ]
            }

            """));
    }

    [Test]
    public void Doctor_FusermountOnPathAndTheRealLibfuse_Pass_ThePassthroughFactAsRoot()
    {
        LibFuseProbeLike();
        // The search path below is /usr/bin: an SDK-only machine has libfuse3 (a dependency of many) but not fuse3 (issue 48).
        CiMachine.Require(File.Exists("/usr/bin/fusermount3") ? null : "needs /usr/bin/fusermount3, which is not installed (Debian: apt-get install fuse3)");
        var machine = Bare() with { SearchPath = $"{_dir["bin"]}:/usr/bin", LibFuse = Cli.Doctor.DoctorMachine.Current().LibFuse, KernelRelease = "6.9.2", IsRoot = false };
        var result = DoctorRun.Run(machine, "--no-cache");
        Assert.That(DoctorRun.Line(result, "fusermount3"), Is.EqualTo("ok   fusermount3         found at /usr/bin/fusermount3"));
        Assert.That(DoctorRun.Line(result, "libfuse3"), Is.EqualTo("ok   libfuse3            libfuse3.so.3 loads, with the entry points the host uses (only for ArchiveEmu:Fuse=libfuse)"));
        var root = DoctorRun.Run(machine with { IsRoot = true }, "--no-cache");
        Assert.That(DoctorRun.Line(root, "kernel passthrough"),
            Is.EqualTo("info kernel passthrough  Linux 6.9.2 offers it; as root the host asks for it (a speed-up only: without it the host serves every read)"));
        Assert.That(root.Out, Does.Not.Contain("fusermount3"), "root mounts through mount(2): neither fusermount3 nor libfuse3 is asked about");
    }

    [Test]
    public void Doctor_ADeviceThatCannotOpenReadWrite_FailsNamingWhy()
    {
        var device = _dir.Write("ro/fuse", []);
        using var readOnly = ReadOnlyBindMount.Over(_dir["ro"]); // root ignores modes: a read-only file system refuses even root
        var result = DoctorRun.Run(Bare() with { DevFuse = device }, "--no-cache");
        Assert.That(result.ExitCode, Is.EqualTo(1));
        Assert.That(DoctorRun.Line(result, "/dev/fuse"), Is.EqualTo($"FAIL /dev/fuse           {device} cannot be opened read-write by this user (Read-only file system)"));
        Assert.That(DoctorRun.FixOf(result, "/dev/fuse"), Is.EqualTo(
            $"     fix:                let this user use it (desktop distributions ship it as crw-rw-rw-: sudo chmod 0666 {device}), or run as root"));
    }

    [Test]
    public void Doctor_ThisMachinesDevice_OpensReadWrite_Exit0()
    {
        LibFuseProbeLike();
        var result = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--cache", _dir["cache"]);
        Assert.That(DoctorRun.Line(result, "/dev/fuse"), Is.EqualTo("ok   /dev/fuse           /dev/fuse opens read-write"));
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out, Does.EndWith("a mount would work here\n"));
    }

    [Test]
    public void DoctorReport_OnATerminal_MarksEachOutcomeWithItsSign()
    {
        var report = new Cli.Doctor.DoctorReport([
            Cli.Doctor.DoctorCheck.Passed("one", "fine"),
            Cli.Doctor.DoctorCheck.Failed("two", "broken", "mend it"),
            Cli.Doctor.DoctorCheck.Warning("three", "odd", "look at it"),
            Cli.Doctor.DoctorCheck.Fact("four", "known"),
        ]);
        var terminal = new StringWriter();
        report.WriteText(terminal, terminal: true);
        Assert.That(terminal.ToString(), Is.EqualTo(
            "✓ one    fine\n✗ two    broken\n  fix:   mend it\n! three  odd\n  fix:   look at it\ni four   known\na mount would fail here: two\n"));
        var piped = new StringWriter();
        report.WriteText(piped, terminal: false);
        Assert.That(piped.ToString(), Is.EqualTo(
            "ok   one    fine\nFAIL two    broken\n     fix:   mend it\nwarn three  odd\n     fix:   look at it\ninfo four   known\na mount would fail here: two\n"));
    }

    /// <summary>Issue 51: the first line says which archiveemu answers, its version and the program, so a player with two copies knows.</summary>
    [Test]
    public void Doctor_FirstLine_IsThisArchiveEmusVersionAndWhereItRunsFrom()
    {
        var current = Cli.Doctor.RunningArchiveEmu.Current();
        Assert.That(current.Version, Is.EqualTo(Program.Version));
        Assert.That(current.ProcessPath, Is.EqualTo(Environment.ProcessPath));
        var first = DoctorRun.Run(DoctorRun.Machine(_dir["home"]), "--no-cache").Out.Split('\n')[0];
        Assert.That(first, Does.StartWith("info archiveemu ").And.Contain($"  {Program.Version} from "));

        Assert.That(DoctorRun.Run(Bare(), "--no-cache").Out.Split('\n')[0], Is.EqualTo("info archiveemu          0.2.0-test from /opt/test/archiveemu"));
        var build = new Cli.Doctor.RunningArchiveEmu("0.2.0-dev+abc", "/usr/lib/dotnet/dotnet", "/src/bin/Release/net10.0/archiveemu.dll");
        Assert.That(build.Check().Detail, Is.EqualTo("0.2.0-dev+abc from a build (/usr/lib/dotnet/dotnet /src/bin/Release/net10.0/archiveemu.dll)"));
        Assert.That(build.LaunchPath, Is.EqualTo("/src/bin/Release/net10.0/archiveemu"), "a launch option starts the build's apphost, not dotnet");
    }

    [Test]
    public void Doctor_ModWithoutGame_IsAUsageError()
    {
        var result = CliRun.Run("doctor", "--mod", CliRun.Fixture("mods/ui-fix"));
        Assert.That(result.ExitCode, Is.EqualTo(2), result.ToString());
        Assert.That(result.Error.Split('\n')[0], Is.EqualTo("archiveemu doctor: --mod needs --game DIR (mods are read against their game)"));
    }

    /// <summary>The machine's own FUSE: present where mount tests run; skipped elsewhere (failed on CI).</summary>
    private static void LibFuseProbeLike()
    {
        bool loads = System.Runtime.InteropServices.NativeLibrary.TryLoad("libfuse3.so.3", out var handle);
        if (loads)
            System.Runtime.InteropServices.NativeLibrary.Free(handle);
        CiMachine.Require(!File.Exists("/dev/fuse") ? "/dev/fuse is missing" : loads ? null : "libfuse3.so.3 is not installed (apt-get install libfuse3-3)");
    }
}
