using System.CommandLine;
using ArchiveEmu.Cli.Commands;
using ArchiveEmu.Cli.Doctor;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>Runs <c>archiveemu doctor</c> in-process against a machine a test describes, or as another user in a process of its own.</summary>
internal static class DoctorRun
{
    public const string Nobody = "65534";

    /// <summary>Doctor as the CLI defines it, with <paramref name="machine"/>'s facts in place of this machine's.</summary>
    public static CliResult Run(DoctorMachine machine, params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var console = new CliConsole(output, error, isInteractive: false);
        var root = Program.Define([new DoctorCommand(machine)], console);
        int code = root.Parse(["doctor", .. args]).Invoke(new InvocationConfiguration { Output = output, Error = error });
        return new CliResult(code, output.ToString(), error.ToString());
    }

    /// <summary>This machine, with only the home folder and the environment the Steam container check reads made the test's own.</summary>
    public static DoctorMachine Machine(string home, IReadOnlyDictionary<string, string>? environment = null) =>
        // No shared /tmp: the repository, and so the tests' games, may well be under /tmp (a fresh clone there in CI).
        DoctorMachine.Current() with { Home = home, Environment = name => environment?.GetValueOrDefault(name), SharedTempFolders = [] };

    /// <summary>The line of <paramref name="output"/> for the check <paramref name="name"/> (its mark, its name padded, its detail).</summary>
    public static string Line(CliResult result, string name) =>
        result.Out.Split('\n').Single(l => l.Length > 5 && l[5..].StartsWith(name + " ", StringComparison.Ordinal));

    /// <summary>Every line of the checks named <paramref name="name"/>, each followed by its fix line when it has one.</summary>
    public static string[] Lines(CliResult result, string name)
    {
        var lines = result.Out.Split('\n');
        return lines.Where((l, i) => l.Length > 5 && (l[5..].StartsWith(name + " ", StringComparison.Ordinal)
            || (l[5..].StartsWith("fix: ", StringComparison.Ordinal) && lines[i - 1][5..].StartsWith(name + " ", StringComparison.Ordinal)))).ToArray();
    }

    /// <summary>The line under <paramref name="name"/>'s line: its fix.</summary>
    public static string FixOf(CliResult result, string name)
    {
        var lines = result.Out.Split('\n');
        return lines[Array.IndexOf(lines, Line(result, name)) + 1];
    }

    /// <summary>The real CLI as the user nobody (setpriv), from a root test run: what a player without root rights sees.</summary>
    public static ToolResult AsNobody(string home, params string[] args)
    {
        LinuxOnly.Require("setpriv, to run as another user");
        CiMachine.RequireRoot("to run doctor as the user nobody through setpriv");
        return ExternalTool.Run("setpriv", ["--reuid=" + Nobody, "--regid=" + Nobody, "--clear-groups", "env", $"HOME={home}",
            $"DOTNET_CLI_HOME={home}", "dotnet", "exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll"), "doctor", .. args]);
    }
}
