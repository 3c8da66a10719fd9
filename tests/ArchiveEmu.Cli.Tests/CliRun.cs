namespace ArchiveEmu.Cli.Tests;

/// <summary>The outcome of running <c>archiveemu</c>.</summary>
internal sealed record CliResult(int ExitCode, string Out, string Error)
{
    public override string ToString() => $"exit {ExitCode}\nstdout:\n{Out}\nstderr:\n{Error}";
}

/// <summary>
/// Runs the CLI with captured output (in-process; with <c>ARCHIVEEMU_EXE=PATH</c>, that installed binary as a process), and
/// finds the repository's fixtures.
/// </summary>
internal static class CliRun
{
    public static CliResult Run(params string[] args)
    {
        if (TestSupport.ArchiveEmuProgram.Installed is not null)
        {
            var run = TestSupport.ArchiveEmuProgram.Run(args);
            return new CliResult(run.ExitCode, run.StdOut.ReplaceLineEndings("\n"), run.StdErr.ReplaceLineEndings("\n"));
        }
        var output = new StringWriter();
        var error = new StringWriter();
        int code = Program.Run(args, new CliConsole(output, error, isInteractive: false));
        // Line ends as on Linux whatever the platform (the Windows check runs these under Wine): tests compare text, not CRLF.
        return new CliResult(code, output.ToString().ReplaceLineEndings("\n"), error.ToString().ReplaceLineEndings("\n"));
    }

    /// <summary>The repository root: the nearest folder above the test binaries holding ArchiveEmu.sln.</summary>
    public static string RepositoryRoot => TestSupport.RepositoryFiles.Root;

    public static string Fixture(string relative) => TestSupport.RepositoryFiles.Fixture(relative);
}
