using System.ComponentModel;
using System.Diagnostics;

namespace ArchiveEmu.Cli.Running;

/// <summary>
/// A failure of <c>run</c> shown on the desktop through <c>notify-send</c>, where a desktop session has one (DISPLAY,
/// WAYLAND_DISPLAY or DBUS_SESSION_BUS_ADDRESS set): under Steam the terminal is never shown. What happened goes to the log.
/// </summary>
internal static class DesktopNotice
{
    public static void Show(string title, string body, RunLog log)
    {
        if (new[] { "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS" }.All(v => string.IsNullOrEmpty(Environment.GetEnvironmentVariable(v))))
        {
            log.Write("no desktop session (DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS unset): not shown on the desktop");
            return;
        }
        if (Host.ProgramSearch.OnPath("notify-send") is not { } notifySend)
        {
            log.Write("notify-send not found on PATH: not shown on the desktop");
            return;
        }
        try
        {
            using var process = Process.Start(new ProcessStartInfo(notifySend, ["--app-name=ArchiveEmu", "--urgency=critical", title, body])
            {
                UseShellExecute = false,
                WorkingDirectory = "/", // never the game folder, which may be a mount in trouble
            });
            if (process is not null && !process.WaitForExit(5000))
                log.Write("notify-send did not finish within 5 s; left running");
            else
                log.Write($"shown on the desktop through {notifySend}");
        }
        catch (Win32Exception e)
        {
            log.Write($"{notifySend}: cannot start it ({e.Message}); not shown on the desktop");
        }
    }
}
