using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// The host (or <c>archiveemu mount</c>) running as a child process, as a user runs it. Disposing it
/// always leaves nothing behind: SIGTERM, then a lazy fusermount3 and a kill if it is still there.
/// </summary>
internal sealed partial class HostProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly StringBuilder _error = new();

    private HostProcess(Process process, string mountPoint)
    {
        _process = process;
        MountPoint = mountPoint;
    }

    public string MountPoint { get; }
    public int Id => _process.Id;

    /// <summary>Everything the process wrote, stdout and stderr interleaved as they arrived.</summary>
    public string Output
    {
        get { lock (_output) return _output.ToString(); }
    }

    /// <summary>
    /// The output once it holds <paramref name="text"/> (or after <paramref name="timeout"/>): the host's lines reach this process
    /// through a pipe read in the background, so a line written before the mount was ready may arrive just after it.
    /// </summary>
    public string OutputOnce(string text, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        while (!Output.Contains(text, StringComparison.Ordinal) && clock.Elapsed < timeout && !_process.HasExited)
            Thread.Sleep(20);
        return Output;
    }

    /// <summary>What the process wrote on stderr alone (the CLI's warnings and usage errors; the host logs on stdout).</summary>
    public string Error
    {
        get { lock (_output) return _error.ToString(); }
    }

    /// <summary>Starts ArchiveEmu.Host.dll with host configuration arguments.</summary>
    public static HostProcess StartHost(string mountPoint, params string[] args) =>
        Start(mountPoint, [Path.Combine(AppContext.BaseDirectory, "ArchiveEmu.Host.dll"), .. args]);

    /// <summary>Starts <c>archiveemu</c> (mount) with CLI arguments: the installed binary with <c>ARCHIVEEMU_EXE</c>, else the test build's.</summary>
    public static HostProcess StartCli(string mountPoint, params string[] args) =>
        TestSupport.ArchiveEmuProgram.Installed is { } installed
            ? Start(mountPoint, args, program: installed)
            : Start(mountPoint, [Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), .. args]);

    /// <summary>
    /// Starts ArchiveEmu.Host.dll as user and group 65534 (nobody) through setpriv, with <paramref name="home"/> as its
    /// home. The caller is root; setpriv execs the host, so signals sent to this process reach it.
    /// </summary>
    public static HostProcess StartHostAsNobody(string mountPoint, string home, params string[] args) =>
        Start(mountPoint, ["--reuid=65534", "--regid=65534", "--clear-groups", "env", $"HOME={home}", $"DOTNET_CLI_HOME={home}",
            "dotnet", "exec", Path.Combine(AppContext.BaseDirectory, "ArchiveEmu.Host.dll"), .. args], program: "/usr/bin/setpriv");

    private static HostProcess Start(string mountPoint, string[] args, string program = "dotnet")
    {
        var info = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (program == "dotnet")
            info.ArgumentList.Add("exec");
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {program}");
        var host = new HostProcess(process, mountPoint);
        process.OutputDataReceived += (_, e) => host.Append(e.Data);
        process.ErrorDataReceived += (_, e) => host.Append(e.Data, stderr: true);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return host;
    }

    private void Append(string? line, bool stderr = false)
    {
        if (line is null)
            return;
        lock (_output)
        {
            _output.AppendLine(line);
            if (stderr)
                _error.AppendLine(line);
        }
    }

    /// <summary>
    /// Waits until the mount shows in /proc/self/mountinfo; fails with the host's output if it exits first. On failure the
    /// process is disposed here (the caller's <c>using</c> never got it).
    /// </summary>
    public HostProcess WaitMounted()
    {
        var clock = Stopwatch.StartNew();
        while (!MountPointState.IsMounted(MountPoint) || LibFuseProbe.IsDeadMount(MountPoint))
        {
            string? failure = _process.HasExited ? $"the host exited ({_process.ExitCode}) before mounting:\n{Output}"
                : clock.Elapsed > TimeSpan.FromSeconds(30) ? $"not mounted after 30 s:\n{Output}" : null;
            if (failure is not null)
            {
                Dispose();
                Assert.Fail(failure);
            }
            Thread.Sleep(50);
        }
        return this;
    }

    /// <summary>Waits for the process to exit by itself and returns its exit code.</summary>
    public int WaitExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
            Assert.Fail($"still running after {timeout.TotalSeconds} s:\n{Output}\n{StillRunning()}");
        _process.WaitForExit(); // drain the output readers
        return _process.ExitCode;
    }

    /// <summary>What a host that did not stop was doing: its threads' kernel wait channels and its open files.</summary>
    private string StillRunning()
    {
        var lines = new List<string>();
        try
        {
            foreach (var task in Directory.GetDirectories($"/proc/{_process.Id}/task"))
                lines.Add($"thread {File.ReadAllText(Path.Combine(task, "comm")).Trim()}: {File.ReadAllText(Path.Combine(task, "wchan"))}");
            foreach (var fd in Directory.GetFiles($"/proc/{_process.Id}/fd"))
                lines.Add($"fd {Path.GetFileName(fd)} -> {new FileInfo(fd).LinkTarget}");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            lines.Add(e.Message);
        }
        return string.Join('\n', lines);
    }

    public bool HasExited => _process.HasExited;

    public void Terminate() => Kill(_process.Id, 15);

    public void KillHard() => Kill(_process.Id, 9);

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int pid, int signal);

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Terminate();
            if (!_process.WaitForExit(TimeSpan.FromSeconds(10)))
                _process.Kill(entireProcessTree: true);
        }
        if (MountPointState.IsMounted(MountPoint) || LibFuseProbe.IsDeadMount(MountPoint))
            TestSupport.ExternalTool.Run("fusermount3", "-u", "-z", MountPoint);
        _process.Dispose();
    }
}
