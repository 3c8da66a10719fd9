namespace ArchiveEmu.Cli.Tests;

/// <summary>The outcome of running <c>archiveemu</c> in-process.</summary>
internal sealed record CliResult(int ExitCode, string Out, string Error)
{
    public override string ToString() => $"exit {ExitCode}\nstdout:\n{Out}\nstderr:\n{Error}";
}

/// <summary>Runs the CLI in-process with captured output, and finds the repository's fixtures.</summary>
internal static class CliRun
{
    public static CliResult Run(params string[] args)
    {
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
