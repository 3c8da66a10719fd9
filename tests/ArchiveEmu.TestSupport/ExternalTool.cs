using System.Diagnostics;

namespace ArchiveEmu.TestSupport;

/// <summary>The result of running a program nobody here wrote (unzip, 7z, tar, python3).</summary>
public sealed record ToolResult(int ExitCode, string StdOut, string StdErr)
{
    public override string ToString() => $"exit {ExitCode}\nstdout:\n{StdOut}\nstderr:\n{StdErr}";
}

/// <summary>
/// Runs independent checkers. A tool that is not installed skips the test, naming the Debian package that provides it
/// (a fresh machine with only the .NET SDK runs the README's test command green); on CI's machine (ARCHIVEEMU_CI=1,
/// .ci/run installs them all) it fails the test instead (<see cref="CiMachine"/>). On Windows (the win-x64 check under
/// Wine, .ci/windows-check) these Linux programs do not exist: a test that needs one is reported as skipped, with the
/// tool named, never as passed.
/// </summary>
public static class ExternalTool
{
    // The programs the tests run, by the Debian package that installs them (the list .ci/run installs).
    private static readonly Dictionary<string, string> DebianPackages = new()
    {
        ["unzip"] = "unzip", ["zip"] = "zip", ["7z"] = "p7zip-full", ["bsdtar"] = "libarchive-tools", ["tar"] = "tar",
        ["python3"] = "python3", ["rsvg-convert"] = "librsvg2-bin", ["fusermount3"] = "fuse3", ["setpriv"] = "util-linux",
        ["bwrap"] = "bubblewrap", ["script"] = "bsdutils", ["mount"] = "mount", ["getent"] = "libc-bin", ["id"] = "coreutils", ["stat"] = "coreutils", ["mkfifo"] = "coreutils", ["kill"] = "procps",
        ["mkfs.xfs"] = "xfsprogs", ["mkfs.btrfs"] = "btrfs-progs", ["filefrag"] = "e2fsprogs",
        ["curl"] = "curl", ["sha256sum"] = "coreutils", ["dash"] = "dash", ["busybox"] = "busybox",
    };

    public static ToolResult Run(string fileName, params string[] args) => RunIn(null, fileName, args);

    /// <summary>Skips the test (fails it on CI) unless <paramref name="tool"/> is on PATH, naming its Debian package.</summary>
    public static void Require(string tool)
    {
        if (OperatingSystem.IsWindows())
            Assert.Ignore($"LinuxOnly: needs the Linux program {tool}, not available on Windows");
        CiMachine.Require(FindOnPath(tool) is null ? $"needs {tool}, which is not installed (Debian: apt-get install {PackageOf(tool)})" : null);
    }

    /// <summary>The Debian package that installs <paramref name="tool"/>.</summary>
    public static string PackageOf(string tool) => DebianPackages.GetValueOrDefault(tool, tool);

    /// <summary>The full path of <paramref name="tool"/> on PATH, or null.</summary>
    public static string? FindOnPath(string tool) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator)
            .Where(dir => dir.Length > 0).Select(dir => Path.Combine(dir, tool)).FirstOrDefault(File.Exists);

    public static ToolResult RunIn(string? workingDirectory, string fileName, params string[] args)
    {
        if (!Path.IsPathRooted(fileName))
            Require(fileName);
        else if (OperatingSystem.IsWindows())
            Assert.Ignore($"LinuxOnly: needs the Linux program {fileName}, not available on Windows");
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var arg in args)
            info.ArgumentList.Add(arg);

        using var process = Process.Start(info) ?? throw new InvalidOperationException($"could not start {fileName}");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{fileName} {string.Join(' ', args)} did not finish in 2 minutes");
        }
        return new ToolResult(process.ExitCode, stdout.Result, stderr.Result);
    }

    /// <summary>Runs a Python 3 script given as text (standard library only).</summary>
    public static ToolResult Python(string script, params string[] args) =>
        Run("python3", new[] { "-c", script }.Concat(args).ToArray());

    // Runs the script once per argument list in one interpreter (its own globals, stdout captured, a failed assert or an
    // exception an exit code of 1), so hundreds of small files cost one start-up instead of hundreds.
    private const string EachDriver = """
import contextlib, io, json, sys, traceback
script, runs = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
code = compile(script, '<script>', 'exec')
results = []
for args in runs:
    sys.argv = ['<script>'] + args
    out, err, status = io.StringIO(), io.StringIO(), 0
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {'__name__': '__main__'})
    except SystemExit as e:
        status = 0 if e.code in (None, 0) else 1
    except BaseException:
        status, _ = 1, err.write(traceback.format_exc(limit=1))
    results.append([status, out.getvalue(), err.getvalue()])
json.dump(results, sys.stdout)
""";

    /// <summary>
    /// Runs a Python 3 script once per entry of <paramref name="runs"/> (its arguments), all in one interpreter; one
    /// result per run, in order, as if each had been a <see cref="Python"/> call of its own.
    /// </summary>
    public static ToolResult[] PythonEach(string script, IReadOnlyList<string[]> runs)
    {
        if (runs.Count == 0)
            return [];
        var folder = Directory.CreateTempSubdirectory("archiveemu-python-each-");
        try
        {
            var scriptPath = Path.Combine(folder.FullName, "script.py");
            var runsPath = Path.Combine(folder.FullName, "runs.json");
            File.WriteAllText(scriptPath, script);
            File.WriteAllText(runsPath, System.Text.Json.JsonSerializer.Serialize(runs));
            var result = Run("python3", "-c", EachDriver, scriptPath, runsPath);
            if (result.ExitCode != 0)
                throw new InvalidOperationException("the Python driver itself failed: " + result);
            return System.Text.Json.JsonSerializer.Deserialize<System.Text.Json.JsonElement[][]>(result.StdOut)!
                .Select(r => new ToolResult(r[0].GetInt32(), r[1].GetString()!, r[2].GetString()!))
                .ToArray();
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }
}
