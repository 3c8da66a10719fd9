using System.CommandLine;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// The options <c>mount</c> and <c>run</c> share, and the typed request they hand the host (<see cref="MountRequest"/>): both run
/// the ArchiveEmu host in this process (one code path, one set of options).
/// </summary>
internal sealed class MountArguments
{
    private readonly bool _run;
    private readonly GameArguments _game;
    private readonly Option<long?> _cacheMaxSize = CacheCap.Option();
    private readonly Option<string> _logLevel = CliOptions.Word("--log-level", "How much the host logs (any case, as Serilog takes it)",
        [.. Host.MountHost.LogLevels], ignoreCase: true);

    /// <param name="run">For <c>run</c>: letter case ignored unless --case-sensitive (Wine asks for Windows spellings), and the working folder is the game when no --game.</param>
    public MountArguments(bool run = false)
    {
        _run = run;
        _game = new GameArguments(workingFolderIsGame: run, storingFromProfile: true, serving: ServingArguments.ForGame(verifyContent: false,
            merge: ServingArguments.MergeOption(), compress: ServingArguments.CompressOption(),
            letterCase: ServingArguments.LetterCaseOptions(run ? " (the default for run)" : "")));
    }

    /// <summary>The usage words these options take, for a command's one-line usage.</summary>
    public static readonly string Usage = UsageOf("--game DIR ");

    /// <summary>As <see cref="Usage"/> for run, whose game folder is the working folder unless --game names one.</summary>
    public static readonly string RunUsage = UsageOf("[--game DIR] ");

    private static string UsageOf(string game) =>
        $"({game}(--mod DIR [--mod DIR…] | --reloaded | --reloaded-dir PATH [--mod DIR…]) | --profile NAME [--mod DIR…]) [--cache DIR | --no-cache] [--merge {string.Join('|', PolicyWords.MergePolicies)}] "
        + $"[--compress {string.Join('|', PolicyWords.Compressions)}] [--cache-max-size N] [--language LANG] [--ignore-case | --case-sensitive] [--log-level Verbose|Debug|Information|Warning|Error|Fatal]";

    public Command AddTo(Command command)
    {
        _game.AddTo(command);
        _game.Serving.AddCommandsOwnTo(command);
        command.Options.Add(_cacheMaxSize);
        command.Options.Add(_logLevel);
        return command;
    }

    /// <summary>
    /// `run` without --game, started from a folder that cannot be a game's (the home folder, /): said at once. It took that
    /// folder as the game and failed far from the cause ("the mod folder is inside the game folder /home/…"), or walked a
    /// Proton prefix's z: link to / first.
    /// </summary>
    private static void RequireAGameFolder(string workingFolder)
    {
        var full = Path.TrimEndingDirectorySeparator(Path.GetFullPath(workingFolder));
        var home = Path.TrimEndingDirectorySeparator(Path.GetFullPath(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile)));
        if (full == home || full == Path.TrimEndingDirectorySeparator(Path.GetPathRoot(full) ?? "/") || full.Length <= 1)
            throw new IOException($"{full}: run takes the working folder as the game folder (Steam starts a game in its folder), and this is "
                + (full == home ? "your home folder" : "the root folder") + "; from a terminal, give the game's folder with --game DIR");
    }

    /// <summary>The game folder the command line names (--game, else the profile's, else for run the working folder).</summary>
    public string? GameFolder(ParseResult parse) => _game.GameFolder(parse);

    /// <summary>
    /// What the host is asked to serve: at <paramref name="mountPoint"/>, or over the game folder itself when it is null. Missing
    /// folders throw (one line on stderr, as every command's) before the host starts logging.
    /// </summary>
    public MountRequest Request(ParseResult parse, CliConsole console, string? mountPoint)
    {
        if (mountPoint is null && _game.TakesWorkingFolder(parse))
            RequireAGameFolder(Environment.CurrentDirectory);
        if (mountPoint is null && _game.GameFolder(parse) is { } inPlace && Host.Fuse.MountPointState.IsDeadArchiveEmu(inPlace))
        {
            // First: the Reloaded-II setup and the Steam files are read through the game folder, and a dead mount answers ENOTCONN.
            Host.Fuse.MountPointState.DetachLazily(Host.Fuse.MountPointState.RealPath(inPlace));
            console.Error.WriteLine($"archiveemu: {Path.GetFullPath(inPlace)}: cleared a dead ArchiveEmu mount left there (its host ended without unmounting)");
        }
        var warnings = new List<string>();
        GameRequest? game = null;
        try
        {
            game = _game.Request(parse, warnings.Add);
        }
        finally // also when the request fails: what was found wrong before it is said
        {
            // Where the Reloaded-II setup was found and which mods it gives; a million of one kind cut to 20 (run's log keeps all).
            CappedLines.WriteTo(console.Error, warnings, game?.Reloaded?.ReportLines());
        }
        foreach (var (folder, what) in game.Mods.Select(m => (m, "mod")).Prepend((game.Game, "game")))
            if (!Directory.Exists(folder) && !(what == "game" && mountPoint is null && IsDeadMount(folder)))
                throw new DirectoryNotFoundException(MissingFolder.Describe(folder, what));
        return new MountRequest(game, mountPoint)
        {
            IgnoreCaseByDefault = _run,
            CacheMaxSize = parse.GetValue(_cacheMaxSize),
            LogLevel = parse.GetValue(_logLevel),
        };
    }

    /// <summary>
    /// Whether something is at <paramref name="folder"/> that cannot be looked at: a dead mount a killed host left over the
    /// game folder ("Transport endpoint is not connected", once the kernel's cached attributes have expired). In place,
    /// the host clears it; it is not a missing folder.
    /// </summary>
    private static bool IsDeadMount(string folder)
    {
        try
        {
            File.GetAttributes(folder);
            return false; // there, and not a folder
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or UnauthorizedAccessException)
        {
            return false;
        }
        catch (IOException)
        {
            return true;
        }
    }
}
