using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Cli.Running;

/// <summary>
/// The program <c>archiveemu run</c> starts once the mount is ready: the calling user's, in the working folder (named again,
/// so it is the mount's and not the folder underneath), with this process's environment, stdin, stdout and stderr. Ctrl+C,
/// SIGTERM, SIGHUP and SIGQUIT are forwarded to it while it runs; one that arrives before it starts means it never starts.
/// </summary>
internal sealed class ChildProgram : IDisposable
{
    private static readonly (PosixSignal Signal, int Number)[] Forwarded =
        [(PosixSignal.SIGINT, 2), (PosixSignal.SIGTERM, 15), (PosixSignal.SIGHUP, 1), (PosixSignal.SIGQUIT, 3)];

    private readonly object _lock = new();
    private readonly PosixSignalRegistration[] _registrations;
    private Process? _child;
    private int _pending;

    /// <summary>Takes over the signals (from now on they do not stop this process, they are the child's).</summary>
    public ChildProgram() =>
        _registrations = Forwarded.Select(s => PosixSignalRegistration.Create(s.Signal, context => Forward(context, s.Number))).ToArray();

    private void Forward(PosixSignalContext context, int number)
    {
        context.Cancel = true;
        lock (_lock)
        {
            if (_child is { } child)
            {
                if (!child.HasExited) // once reaped, its pid may be another process's
                    LibC.Kill(child.Id, number);
            }
            else if (_pending == 0)
                _pending = number;
        }
    }

    /// <summary>Runs <paramref name="command"/> (once) and waits for it: its exit code, 128 + the signal that killed it, 127 when it cannot start.</summary>
    public int Run(IReadOnlyList<string> command, Action<string> error)
    {
        var info = StartInfo(command);
        lock (_lock)
        {
            if (_pending != 0)
                return 128 + _pending;
            try
            {
                _child = Process.Start(info);
            }
            catch (Win32Exception e)
            {
                error($"archiveemu run: {command[0]}: cannot start it ({e.Message})");
                return 127;
            }
        }
        _child!.WaitForExit();
        return _child.ExitCode; // .NET gives 128 + the signal for a program a signal ended
    }

    /// <summary>
    /// As the calling user: under sudo (root with SUDO_UID set) the user sudo was run by, through setpriv with that user's
    /// groups, HOME, USER and LOGNAME; otherwise this process's own user.
    /// </summary>
    private static ProcessStartInfo StartInfo(IReadOnlyList<string> command)
    {
        var info = new ProcessStartInfo { UseShellExecute = false, WorkingDirectory = Environment.CurrentDirectory };
        var user = SudoUser();
        if (user is null)
        {
            info.FileName = Host.ProgramSearch.OnPath(command[0]) ?? command[0];
            foreach (var arg in command.Skip(1))
                info.ArgumentList.Add(arg);
            return info;
        }
        info.FileName = Host.ProgramSearch.OnPath("setpriv") ?? "setpriv";
        foreach (var arg in (string[])[$"--reuid={user.Value.Uid}", $"--regid={user.Value.Gid}",
                     user.Value.Name is null ? "--clear-groups" : "--init-groups", "--", .. command])
            info.ArgumentList.Add(arg);
        if (user.Value.Name is { } name)
        {
            info.Environment["USER"] = info.Environment["LOGNAME"] = name;
            if (user.Value.Home is { } home)
                info.Environment["HOME"] = home;
        }
        return info;
    }

    private static (string Uid, string Gid, string? Name, string? Home)? SudoUser()
    {
        // IsPrivilegedProcess is geteuid() == 0 on Unix
        if (!Environment.IsPrivilegedProcess || Environment.GetEnvironmentVariable("SUDO_UID") is not { Length: > 0 } uid || uid == "0"
            || !uint.TryParse(uid, out _))
            return null;
        var gid = Environment.GetEnvironmentVariable("SUDO_GID") is { Length: > 0 } g && uint.TryParse(g, out _) ? g : uid;
        // /etc/passwd: name:x:uid:gid:gecos:home:shell
        var entry = File.Exists("/etc/passwd")
            ? File.ReadLines("/etc/passwd").Select(l => l.Split(':')).FirstOrDefault(f => f.Length >= 7 && f[2] == uid)
            : null;
        return (uid, gid, entry?[0], entry?[5]);
    }

    public void Dispose()
    {
        foreach (var registration in _registrations)
            registration.Dispose();
        _child?.Dispose();
    }
}
