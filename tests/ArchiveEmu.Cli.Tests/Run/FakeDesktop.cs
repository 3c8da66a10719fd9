using ArchiveEmu.Cli.Tests.Profiles;

namespace ArchiveEmu.Cli.Tests.Run;

/// <summary>
/// A desktop session for one test of <c>run</c>'s failures: fresh user folders (<see cref="UserFoldersScope"/>: profiles and
/// run logs), and a notify-send first on PATH that writes its arguments one per line to <c>notified</c>. Every variable it or
/// a test sets (<see cref="Set"/>) is put back on dispose.
/// </summary>
internal sealed class FakeDesktop : IDisposable
{
    private readonly UserFoldersScope _user = new();
    private readonly Dictionary<string, string?> _saved = new();

    public FakeDesktop()
    {
        Directory.CreateDirectory(_user["bin"]);
        File.WriteAllText(_user["bin/notify-send"], $"#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{_user["notified"]}'\n");
        if (OperatingSystem.IsLinux())
            File.SetUnixFileMode(_user["bin/notify-send"], UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        Set("PATH", $"{_user["bin"]}:{Environment.GetEnvironmentVariable("PATH")}");
        Set("DISPLAY", ":0");
        Set("WAYLAND_DISPLAY", null);
        Set("DBUS_SESSION_BUS_ADDRESS", null);
    }

    /// <summary>A path in the session's own folder ("notified", "bin/notify-send", or any file a test makes there).</summary>
    public string this[string relative] => _user[relative];

    /// <summary>Where profiles are kept.</summary>
    public string Profiles => _user.Profiles;

    /// <summary>Where <c>run</c> writes its logs.</summary>
    public string Logs => _user.Logs;

    /// <summary>Sets an environment variable for the test, to be put back on dispose.</summary>
    public void Set(string name, string? value)
    {
        _saved.TryAdd(name, Environment.GetEnvironmentVariable(name));
        Environment.SetEnvironmentVariable(name, value);
    }

    /// <summary>The one run log written.</summary>
    public string TheLog()
    {
        var logs = Directory.GetFiles(Logs);
        Assert.That(logs, Has.Length.EqualTo(1), "one run, one log");
        return logs[0];
    }

    /// <summary>The log's lines without their time stamps ("2026-11-27 07:40:12.345 ").</summary>
    public static string[] Lines(string log) => File.ReadAllLines(log).Select(l => l[24..]).ToArray();

    public void Dispose()
    {
        foreach (var (name, value) in _saved)
            Environment.SetEnvironmentVariable(name, value);
        _user.Dispose();
    }
}
