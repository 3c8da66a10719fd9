using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// Downloads with the system's <c>curl</c>, which SteamOS and every desktop Linux have: HTTPS with the system's
/// certificates and proxies, without the program loading OpenSSL's TLS itself (docs/INSTALL.md, "What it needs").
/// <c>file://</c> addresses work too (a release copied to a USB stick, and the tests).
/// </summary>
internal static class Curl
{
    /// <summary>curl's exits that mean the server was never reached: no name, no connection, no answer in time.</summary>
    private static readonly int[] Unreachable = [5, 6, 7, 28];

    /// <summary>Writes <paramref name="url"/> to <paramref name="file"/>; a failure is one line naming the address and why.</summary>
    public static void Download(string url, string file, long maxBytes)
    {
        var start = new ProcessStartInfo("curl")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "-fsSL", "--retry", "2", "--connect-timeout", "20",
                     "--max-filesize", maxBytes.ToString(CultureInfo.InvariantCulture), "-o", file, url })
            start.ArgumentList.Add(argument);
        Process curl;
        try
        {
            curl = Process.Start(start) ?? throw new IOException("curl did not start");
        }
        catch (Win32Exception)
        {
            throw new IOException("downloading needs curl, and 'curl' is not on PATH (SteamOS has it; Debian: apt-get install curl)");
        }
        using (curl)
        {
            var errors = curl.StandardError.ReadToEndAsync();
            curl.StandardOutput.ReadToEnd();
            curl.WaitForExit();
            var said = string.Join(' ', errors.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
            if (curl.ExitCode == 0)
                return;
            throw new IOException(Unreachable.Contains(curl.ExitCode)
                ? $"no network connection to {url} ({said})"
                : $"could not download {url} ({(said.Length > 0 ? said : $"curl exit {curl.ExitCode}")})");
        }
    }
}
