using System.Diagnostics;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// The <c>archiveemu</c> program the tests start as a process: the installed binary named by <c>ARCHIVEEMU_EXE</c> (the
/// NativeAOT or single-file build, docs/INSTALL.md), else this test build's archiveemu.dll through <c>dotnet exec</c>.
/// </summary>
public static class ArchiveEmuProgram
{
    /// <summary>The installed binary the tests run against, or null for the test build.</summary>
    public static string? Installed { get; } =
        Environment.GetEnvironmentVariable("ARCHIVEEMU_EXE") is { Length: > 0 } exe ? Path.GetFullPath(exe) : null;

    /// <summary>
    /// The program and the arguments that come before archiveemu's own: <c>[exe]</c>, or <c>[dotnet, exec, archiveemu.dll]</c>;
    /// on Windows (the self-contained tests .ci/windows-check runs under Wine, with no dotnet host) archiveemu.exe beside them.
    /// </summary>
    public static IReadOnlyList<string> CommandLine { get; } = Installed is { } installed ? [installed]
        : OperatingSystem.IsWindows() ? [Path.Combine(AppContext.BaseDirectory, "archiveemu.exe")]
        : ["dotnet", "exec", Path.Combine(AppContext.BaseDirectory, "archiveemu.dll")];

    /// <summary>Runs <c>archiveemu ARGS</c> to the end (2 minutes at most).</summary>
    public static ToolResult Run(params string[] args) => RunIn(null, args);

    public static ToolResult RunIn(string? workingDirectory, params string[] args) =>
        ExternalTool.RunIn(workingDirectory, CommandLine[0], [.. CommandLine.Skip(1), .. args]);

    /// <summary>A start of <c>archiveemu ARGS</c>, output redirected, for a test that watches the process as it runs.</summary>
    public static ProcessStartInfo StartInfo(params string[] args)
    {
        var info = new ProcessStartInfo(CommandLine[0]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var arg in CommandLine.Skip(1).Concat(args))
            info.ArgumentList.Add(arg);
        return info;
    }
}
