using System.CommandLine;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Cli.Running;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu run … -- COMMAND [ARGS…]</c>: mounts the modded game over the game folder itself (as <c>mount --in-place</c>),
/// runs COMMAND once the mount is ready (<see cref="ChildProgram"/>), and unmounts when it exits; the exit code is COMMAND's.
/// For Steam's launch options: <c>archiveemu run --profile NAME -- %command%</c>. Under Steam nobody reads the terminal:
/// every run writes a log (<see cref="RunLog"/>), and a mount that cannot be made is also shown on the desktop
/// (<see cref="DesktopNotice"/>), then stops (<c>--on-failure stop</c>) or starts the game unmodded (<c>play</c>).
/// </summary>
internal sealed class RunCommand : ICommand
{
    private readonly MountArguments _mount = new(run: true);
    private readonly Argument<string[]> _command = new("COMMAND")
    {
        Description = "The program to run with the game folder modded, and its arguments (after --)",
        Arity = ArgumentArity.OneOrMore,
    };
    // Taken and ignored: run always mounts over the game folder, and a player who writes the flag out (as for mount) is right.
    private readonly Option<bool> _inPlace = new("--in-place") { Description = "Implied: run always mounts over the game folder itself" };
    private readonly Option<string> _onFailure = CliOptions.Word("--on-failure",
        "When the mount cannot be made: stop (the default) starts nothing and exits 1; play starts the game unmodded", ["stop", "play"]);

    public string Name => "run";
    public string Usage => $"archiveemu run {MountArguments.RunUsage} [--on-failure stop|play] -- COMMAND [ARGS…]";

    public Command Define(CliConsole console)
    {
        var command = _mount.AddTo(new Command(Name, "Mount the modded game over the game folder, run COMMAND, unmount when it exits. "
            + "Without --game (and no --profile giving one), the game folder is the working folder, where Steam starts a game. "
            + $"Ignores letter case unless --case-sensitive. Each run's log is written to {RunLog.Folder} (the last {RunLog.Kept} kept)"));
        command.Options.Add(_inPlace);
        command.Options.Add(_onFailure);
        command.Arguments.Add(_command);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var log = RunLog.Start(string.Join(' ', parse.Tokens.Select(t => Quoted(t.Value))), console.Error);
        var program = parse.GetRequiredValue(_command);
        bool play = parse.GetValue(_onFailure) == "play";
        using var stderr = new LoggedWriter(console.Error, log.Write); // every line run writes: the terminal and the log alike
        var logged = new CliConsole(console.Out, stderr, console.IsInteractive);
        Action<string> error = stderr.WriteLine;
        var folder = Environment.CurrentDirectory; // where the game is started, --on-failure play or not
        Host.Requests.MountRequest request;
        try
        {
            folder = _mount.GameFolder(parse) ?? folder;
            request = _mount.Request(parse, logged, mountPoint: null);
            if (!OperatingSystem.IsLinux())
                throw new IOException("run mounts the game folder through FUSE, which needs Linux");
        }
        catch (Exception e) when (Program.IsBadInput(e))
        {
            return Failed(UsageErrors.OneLine(e.Message), said: false, play, program, folder, null, log, error);
        }
        using var child = new ChildProgram(); // from here Ctrl+C and SIGTERM are the child's, also while mounting
        bool started = false;
        int code = Host.MountHost.Run(request with { LogFile = log.Path }, () =>
        {
            started = true;
            return Finished(program, child.Run(program, error), log);
        });
        // The host said why on stderr and in the log; the notice repeats its last error.
        return started ? code : Failed(log.LastHostError() ?? "the mount could not be made", said: true, play, program, folder, child, log, error);
    }

    /// <summary>
    /// A command line <c>run</c> cannot parse (a misspelt option, <c>--mod</c> naming a folder of mods, no mods option): Steam
    /// shows no terminal, so the error <paramref name="report"/> writes goes to a new run log too and to the desktop, and
    /// <c>--on-failure play</c> and the command after <c>--</c>, found in the raw <paramref name="args"/>, are honoured: the
    /// game starts unmodded and its exit code is run's; otherwise exit 2.
    /// </summary>
    public static int UsageFailed(IReadOnlyList<string> args, CliConsole console, Func<CliConsole, int> report)
    {
        int end = args.ToList().IndexOf("--");
        string[] program = end < 0 ? [] : [.. args.Skip(end + 1)];
        var options = end < 0 ? args : args.Take(end).ToList();
        bool play = options.Select((a, i) => a is "--on-failure=play" or "--on-failure:play"
            || a == "--on-failure" && i + 1 < options.Count && options[i + 1] == "play").Any(p => p);
        var log = RunLog.Start(string.Join(' ', args.Select(Quoted)), console.Error);
        using var stderr = new LoggedWriter(console.Error, log.Write);
        int code = report(new CliConsole(console.Out, stderr, console.IsInteractive));
        var reason = stderr.FirstLine ?? "the command line could not be read";
        if (program.Length == 0)
        {
            stderr.WriteLine($"archiveemu run: nothing was started (no command after --); {log.Where}");
            DesktopNotice.Show("ArchiveEmu: the game was not started", $"{reason}\n{Capitalised(log.Where)}", log);
            return code;
        }
        return Failed(reason, said: true, play, program, Environment.CurrentDirectory, null, log, stderr.WriteLine, stopCode: code);
    }

    /// <summary>
    /// The mount could not be made: nothing started (exit <paramref name="stopCode"/>), or with <c>play</c> the game unmodded
    /// (its exit code). One line on stderr, with the reason unless it was <paramref name="said"/> already, and where the log is.
    /// A game started in a <paramref name="folder"/> another ArchiveEmu serves (a second launch while a run plays) is not
    /// unmodded: it sees that run's mods, and says so.
    /// </summary>
    private static int Failed(string reason, bool said, bool play, string[] program, string folder, ChildProgram? child, RunLog log, Action<string> error,
        int stopCode = 1)
    {
        var why = said ? "" : $"{reason}; ";
        if (!play)
        {
            error($"archiveemu run: {why}the game was not started (--on-failure stop); {log.Where}");
            DesktopNotice.Show("ArchiveEmu: the game was not started", $"{reason}\n{Capitalised(log.Where)}", log);
            return stopCode;
        }
        if (OperatingSystem.IsLinux() && Host.Fuse.MountPointState.IsLiveArchiveEmu(folder))
        {
            error($"archiveemu run: {why}starting the game anyway (--on-failure play) in its folder, which another ArchiveEmu serves: "
                  + $"the game sees that run's mods; {log.Where}");
            DesktopNotice.Show("ArchiveEmu: the game starts with another run's mods", $"{reason}\n{Capitalised(log.Where)}", log);
        }
        else
        {
            error($"archiveemu run: {why}starting the game unmodded (--on-failure play); {log.Where}");
            DesktopNotice.Show("ArchiveEmu: the game starts without mods", $"{reason}\n{Capitalised(log.Where)}", log);
        }
        using var own = child is null ? new ChildProgram() : null; // the signals are the game's from here
        return Finished(program, (child ?? own!).Run(program, error), log);
    }

    private static int Finished(string[] program, int code, RunLog log)
    {
        log.Write($"{program[0]} exited with code {code}");
        return code;
    }

    /// <summary>An argument as a shell would need it written, so the log's command line can be run again.</summary>
    private static string Quoted(string arg) =>
        arg.Length > 0 && arg.All(c => char.IsAsciiLetterOrDigit(c) || "-_./:=@%+,".Contains(c)) ? arg : $"'{arg.Replace("'", "'\\''")}'";

    private static string Capitalised(string text) => char.ToUpperInvariant(text[0]) + text[1..];
}
