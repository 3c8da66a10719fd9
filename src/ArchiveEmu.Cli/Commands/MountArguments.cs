using ArchiveEmu.Core.Routing;
using System.CommandLine;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// The options <c>mount</c> and <c>run</c> share, and their translation into the host's configuration keys: both run the
/// ArchiveEmu host in this process (one code path, one set of options).
/// </summary>
internal sealed class MountArguments
{
    private readonly bool _run;
    private readonly GameArguments _game;
    private readonly Option<string> _merge = MergeOption();
    private readonly Option<string> _compress = CompressOption();
    private readonly Option<bool> _ignoreCase;
    private readonly Option<bool> _caseSensitive = CaseSensitiveOption();
    private readonly Option<long?> _cacheMaxSize = CacheCap.Option();
    private readonly Option<string> _logLevel = CliOptions.Word("--log-level", "How much the host logs (any case, as Serilog takes it)",
        [.. Host.MountHost.LogLevels], ignoreCase: true);

    /// <param name="run">For <c>run</c>: letter case ignored unless --case-sensitive (Wine asks for Windows spellings), and the working folder is the game when no --game.</param>
    public MountArguments(bool run = false)
    {
        _run = run;
        _game = new GameArguments(workingFolderIsGame: run);
        _ignoreCase = IgnoreCaseOption(run ? " (the default for run)" : "");
    }

    /// <summary>The usage words these options take, for a command's one-line usage.</summary>
    public static readonly string Usage = UsageOf("--game DIR ");

    /// <summary>As <see cref="Usage"/> for run, whose game folder is the working folder unless --game names one.</summary>
    public static readonly string RunUsage = UsageOf("[--game DIR] ");

    private static string UsageOf(string game) =>
        $"({game}(--mod DIR [--mod DIR…] | --reloaded | --reloaded-dir PATH [--mod DIR…]) | --profile NAME [--mod DIR…]) [--cache DIR | --no-cache] [--merge {string.Join('|', PolicyWords.MergePolicies)}] "
        + $"[--compress {string.Join('|', PolicyWords.Compressions)}] [--cache-max-size N] [--language LANG] [--ignore-case | --case-sensitive] [--log-level Verbose|Debug|Information|Warning|Error|Fatal]";

    public static Option<string> MergeOption() => CliOptions.Word("--merge", "Which archives to pack into the merged file cache (the host's default when absent)",
        PolicyWords.MergePolicies);

    public static Option<string> CompressOption() => CliOptions.Word("--compress",
        "How archives the mount merges are stored: auto (the default) measures the cache device against LZ4 and stores LZ4 only where it reads faster",
        PolicyWords.Compressions);

    public static Option<bool> IgnoreCaseOption(string byDefault) => new("--ignore-case")
    {
        Description = "Find a path whatever the letter case asked, as Windows does (for games under Wine/Proton)" + byDefault,
    };

    public static Option<bool> CaseSensitiveOption() => new("--case-sensitive")
    {
        Description = "Serve only the exact letter case of each name, as Linux does (the default for mount, unless a profile says otherwise)",
    };

    public Command AddTo(Command command)
    {
        _game.AddTo(command, verifyContent: false);
        command.Options.Add(_merge);
        command.Options.Add(_compress);
        command.Options.Add(_cacheMaxSize);
        command.Options.Add(_ignoreCase);
        command.Options.Add(_caseSensitive);
        command.Options.Add(_logLevel);
        command.Validate(result => result.GetValue(_ignoreCase) && result.GetValue(_caseSensitive) ? "--ignore-case and --case-sensitive contradict each other" : null);
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
    /// The host's arguments: served at <paramref name="mountPoint"/>, or over the game folder itself when it is null.
    /// Missing folders throw (one line on stderr, as every command's) before the host starts logging.
    /// </summary>
    public string[] HostArgs(ParseResult parse, CliConsole console, string? mountPoint)
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
        GameChoice? choice = null;
        try
        {
            choice = _game.Choose(parse, warnings.Add);
        }
        finally // also when the choice fails: what was found wrong before it is said
        {
            // Where the Reloaded-II setup was found and which mods it gives; a million of one kind cut to 20 (run's log keeps all).
            CappedLines.WriteTo(console.Error, warnings, choice?.Reloaded?.ReportLines());
        }
        var (game, mods) = choice;
        var saved = choice.Profile?.Options; // the profile's options, under the command line's
        foreach (var (folder, what) in mods.Select(m => (m, "mod")).Prepend((game, "game")))
            if (!Directory.Exists(folder) && !(what == "game" && mountPoint is null && IsDeadMount(folder)))
                throw new DirectoryNotFoundException(MissingFolder.Describe(folder, what));
        var hostArgs = new List<string> { $"--ArchiveEmu:Game={Path.GetFullPath(game)}" };
        hostArgs.Add(mountPoint is null ? "--ArchiveEmu:InPlace=true" : $"--ArchiveEmu:MountPoint={Path.GetFullPath(mountPoint)}");
        for (int i = 0; i < mods.Length; i++)
            hostArgs.Add($"--ArchiveEmu:Mods:{i}={Path.GetFullPath(mods[i])}");
        bool noCache = parse.GetValue(_game.NoCache);
        if (!noCache && (parse.GetValue(_game.Cache) ?? saved?.Cache) is { } cache)
            hostArgs.Add($"--ArchiveEmu:Cache={Path.GetFullPath(cache)}");
        if (noCache)
            hostArgs.Add("--ArchiveEmu:NoCache=true");
        if ((parse.GetValue(_merge) ?? saved?.Merge) is { } policy)
            hostArgs.Add($"--ArchiveEmu:Merge={policy}");
        if ((parse.GetValue(_compress) ?? saved?.Compress) is { } compression)
            hostArgs.Add($"--ArchiveEmu:Compression={compression}");
        if (parse.GetValue(_cacheMaxSize) is { } maxBytes)
            hostArgs.Add($"--ArchiveEmu:CacheMaxSize={maxBytes}");
        if ((parse.GetValue(_game.Language) ?? saved?.Language) is { } language)
            hostArgs.Add($"--ArchiveEmu:Language={language}");
        if (IgnoreCase(parse, saved))
            hostArgs.Add("--ArchiveEmu:IgnoreCase=true");
        if (parse.GetValue(_logLevel) is { } level)
            hostArgs.Add($"--Serilog:MinimumLevel:Default={level}");
        return hostArgs.ToArray();
    }

    /// <summary>The command line's --ignore-case or --case-sensitive, else the profile's choice, else the command's default.</summary>
    private bool IgnoreCase(ParseResult parse, Profiles.ProfileOptions? saved) =>
        parse.GetValue(_ignoreCase) || (!parse.GetValue(_caseSensitive) && (saved?.IgnoreCase ?? _run));

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
