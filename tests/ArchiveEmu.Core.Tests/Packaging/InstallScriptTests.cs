using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Packaging;

/// <summary>
/// Issue 48, <c>install.sh</c>'s uninstall lines name every folder ArchiveEmu writes: the program, the merged file cache,
/// the profiles and the run logs, each where the program itself puts it (XDG variables when absolute, else under HOME).
/// The build is a fake <c>dotnet</c> on PATH that writes a script as the program (the real publish takes minutes and is
/// <c>.ci/install-check</c>'s).
/// </summary>
public sealed class InstallScriptTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void MakeFakeSdk()
    {
        LinuxOnly.Require("install.sh is a bash script");
        _dir = new TempDirectory("install");
        // dotnet publish … -o OUT: the "program" answers --version; everything else install.sh asks of it is the script's own.
        var dotnet = _dir.Write("bin/dotnet", """
            #!/bin/sh
            while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
            mkdir -p "$out" && printf '#!/bin/sh\necho 0.0.0-fake\n' > "$out/archiveemu" && chmod +x "$out/archiveemu"
            """u8.ToArray());
        if (OperatingSystem.IsLinux())
            File.SetUnixFileMode(dotnet, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
    }

    [TearDown]
    public void Delete() => _dir?.Dispose();

    /// <summary>The lines from "To uninstall:" to the end of install.sh's output, run with only <paramref name="environment"/>.</summary>
    private string[] UninstallLines(params string[] environment)
    {
        var result = ExternalTool.Run("env", ["-i", $"HOME={_dir["home"]}", $"PATH={_dir["bin"]}:/usr/bin:/bin", .. environment,
            "bash", Path.Combine(RepositoryFiles.Root, "install.sh"), "--prefix", _dir["prefix"], "--single-file"]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var lines = result.StdOut.TrimEnd('\n').Split('\n');
        return lines[Array.IndexOf(lines, "To uninstall:")..];
    }

    [Test]
    public void TheUninstallLines_NameTheProgramTheCacheTheProfilesAndTheLogs_UnderHome()
    {
        Assert.That(UninstallLines(), Is.EqualTo(new[]
        {
            "To uninstall:",
            $"  rm -f '{_dir["prefix/bin/archiveemu"]}'",
            $"  rm -rf '{_dir["home/.cache/archiveemu"]}'   # the merged file cache, if you used it",
            $"  rm -rf '{_dir["home/.config/archiveemu/profiles"]}'   # your profiles (archiveemu profile save)",
            $"  rm -rf '{_dir["home/.local/state/archiveemu/logs"]}'   # the logs of archiveemu run",
        }));
    }

    [Test]
    public void TheUninstallLines_FollowTheXdgVariables_AsTheProgramDoes_ARelativeOneIgnored()
    {
        Assert.That(UninstallLines($"XDG_CACHE_HOME={_dir["cache"]}", $"XDG_CONFIG_HOME={_dir["config"]}", "XDG_STATE_HOME=relative/state")[2..],
            Is.EqualTo(new[]
            {
                $"  rm -rf '{_dir["cache/archiveemu"]}'   # the merged file cache, if you used it",
                $"  rm -rf '{_dir["config/archiveemu/profiles"]}'   # your profiles (archiveemu profile save)",
                $"  rm -rf '{_dir["home/.local/state/archiveemu/logs"]}'   # the logs of archiveemu run",
            }));
    }
}
