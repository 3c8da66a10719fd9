using ArchiveEmu.Core.Interop;
using System.CommandLine;
using ArchiveEmu.Cli.Profiles;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.Machine.ReloadedII;
using ArchiveEmu.Core.Machine.Steam;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// The <c>--game DIR --mod DIR… [--cache DIR | --no-cache] [--verify-content] [--language LANG]</c> options the archive
/// commands share, and the one place that decides which game folder and which mods a command serves (<see cref="Choose"/>).
/// </summary>
internal sealed class GameArguments
{
    private readonly bool _modsRequired;
    private readonly bool _gameRequired;
    private readonly bool _workingFolderIsGame;

    public Option<string> Game { get; } = new("--game") { Description = "The game folder, as shipped", HelpName = "DIR" };

    /// <param name="modsRequired">False where the game alone makes sense (<c>ls</c> of an original, to find its entries).</param>
    /// <param name="gameRequired">False where the command means something without a game (<c>doctor</c>: the machine's checks alone).</param>
    /// <param name="workingFolderIsGame">True for <c>run</c>: Steam starts a game in its folder, so no --game means that folder.</param>
    public GameArguments(bool modsRequired = true, bool gameRequired = true, bool workingFolderIsGame = false)
    {
        _modsRequired = modsRequired;
        _gameRequired = gameRequired;
        _workingFolderIsGame = workingFolderIsGame;
        Mods = new("--mod")
        {
            Description = "A mod folder mirroring the game folder; repeat for more, lowest priority first" + (modsRequired ? "" : " (none: the original)"),
            HelpName = "DIR",
            Arity = ArgumentArity.OneOrMore,
        };
    }

    public Option<string[]> Mods { get; }

    public Option<string> Cache { get; } = new("--cache") { Description = "The merged file cache folder (default: ~/.cache/archiveemu)", HelpName = "DIR" };

    public Option<bool> NoCache { get; } = new("--no-cache") { Description = "Neither read nor store layouts or merged archives" };

    public Option<bool> VerifyContent { get; } = new("--verify-content") { Description = "Key the cache on a hash of every input, not only sizes and times" };

    public Option<string> Language { get; } = LanguageOption();

    /// <summary><c>--reloaded</c> and <c>--reloaded-dir PATH</c>: mods from a Reloaded-II setup, before the <c>--mod</c> folders.</summary>
    public ReloadedOptions Reloaded { get; } = new();

    /// <summary><c>--profile NAME</c>: the saved game, mods and options (<see cref="ProfileStore"/>), under the command line's.</summary>
    public Option<string> Profile { get; } = ProfileStore.Option();

    /// <summary>Adds the options (<c>--verify-content</c> only where the cache keys are computed here) and the rule that
    /// <c>--cache</c> and <c>--no-cache</c> exclude each other.</summary>
    public Command AddTo(Command command, bool verifyContent = true)
    {
        command.Options.Add(Game);
        command.Options.Add(Mods);
        command.Options.Add(Cache);
        command.Options.Add(NoCache);
        if (verifyContent)
            command.Options.Add(VerifyContent);
        command.Options.Add(Language);
        Reloaded.AddTo(command);
        command.Options.Add(Profile);
        command.Validate(result => result.Given(Cache) && result.GetValue(NoCache) ? "--cache and --no-cache contradict each other" : null);
        command.Validate(result => result.Given(Game) || result.Given(Profile) || _workingFolderIsGame || !_gameRequired ? null : "missing --game DIR");
        command.Validate(result => _modsRequired && !result.Given(Mods) && !Reloaded.Given(result) && !result.Given(Profile)
            ? "missing --mod DIR (or --reloaded, or --reloaded-dir PATH)" : null);
        command.Validate(result => result.GetValue(Game) is { } game ? ModFolders.InsideTheGame(game, result.GetValue(Mods) ?? []) : null);
        command.Validate(result => ModFolders.SeveralMods(result.GetValue(Mods) ?? []));
        return command;
    }

    /// <summary>
    /// Opens the game the options describe (<see cref="EmulatedGame.Open"/>); it reads from the cache (default folder unless --cache) unless --no-cache. Warnings
    /// about the mods (one given twice, one inside another, a folder that looks meant for an archive but matches no game file)
    /// and about what the game serves (an index far past an archive's end) go to <paramref name="warnings"/>, or else to stderr.
    /// </summary>
    /// <param name="compression">How merged bytes are stored (<see cref="EmulatedGame.Compression"/> decides it for the cache folder).</param>
    /// <param name="storePlan">Whether the resolved route plan is kept in the cache folder (a build writes the cache; cat and ls only read it).</param>
    public EmulatedGame Open(ParseResult parse, CliConsole console, List<string>? warnings = null, CompressionChoice compression = CompressionChoice.Auto,
        bool storePlan = false, Action<GameChoice>? chosen = null)
    {
        var said = new List<string>(); // while opening: printed together at the end, a million of one kind cut to 20
        bool opened = false;
        Action<string> warn = warnings is not null ? warnings.Add
            : warning => { if (opened) console.Error.WriteLine($"archiveemu: warning: {warning}"); else said.Add(warning); };
        try
        {
            var choice = Choose(parse, warn);
            chosen?.Invoke(choice);
            var (gameFolder, mods) = choice;
            var profile = choice.Profile;
            var cache = parse.GetValue(NoCache) ? null : OpenCache(parse.GetValue(Cache) ?? profile?.Options.Cache, warn, // its warnings (a full disk) in build --json too
                waiting: message => console.Error.WriteLine($"archiveemu: warning: {message}")); // a wait for another writer: at once
            var game = EmulatedGame.Open(new GameSetup(gameFolder, mods)
            {
                Language = SteamLanguage.Choose(parse.GetValue(Language) ?? profile?.Options.Language, "--language", gameFolder, warn),
                Cache = cache,
                VerifyContent = parse.GetValue(VerifyContent),
                Warn = warn,
                Compression = compression,
                StorePlan = storePlan,
            });
            foreach (var warning in game.Plan.Warnings)
                warn(warning);
            return game;
        }
        finally // also when opening fails: what was found wrong before it is said
        {
            CappedLines.WriteTo(console.Error, said);
            opened = true; // what serving warns of later is printed as it comes
        }
    }

    /// <summary>
    /// The game folder and the mods, in priority order and each once, that the command line asks for; what was odd about
    /// the mods goes to <paramref name="warn"/>. Every command that serves a game (build, cat, ls, mount, run) asks here.
    /// With <c>--profile</c>, as if the profile's options were written before the command line's: <c>--game</c> given
    /// replaces the profile's game, <c>--mod</c> given adds after (over) the profile's mods, <c>--reloaded</c> or
    /// <c>--reloaded-dir</c> given replaces the profile's Reloaded-II choice. With none of them, <c>run</c> serves the working folder.
    /// </summary>
    public GameChoice Choose(ParseResult parse, Action<string> warn)
    {
        var name = parse.GetValue(Profile);
        var profile = name is null ? null : ProfileStore.Load(name);
        var game = GameFolder(parse, profile) ?? parse.GetRequiredValue(Game);
        string[] given = [.. profile?.Mods ?? [], .. parse.GetValue(Mods) ?? []];
        if (profile is not null && ModFolders.InsideTheGame(game, given) is { } inside)
            throw new IOException($"{ProfileStore.PathOf(name!)}: {inside}"); // the command line's own mods were checked while parsing
        var reloaded = Reloaded.Read(parse, game, given, warn, profile); // its mods first, in Reloaded-II's load order, then the --mod folders
        var odd = new List<string>();
        var mods = ModFolders.Distinct([.. reloaded?.ModFolders ?? [], .. given], odd);
        odd.ForEach(warn);
        return new GameChoice(game, mods) { Reloaded = reloaded, Profile = profile };
    }

    /// <summary>The game folder the command line names: --game, else the profile's, else (run) the working folder; null when none.</summary>
    public string? GameFolder(ParseResult parse, Profile? profile = null) =>
        parse.GetValue(Game) ?? (profile ?? (parse.GetValue(Profile) is { } name ? ProfileStore.Load(name) : null))?.Game
        ?? (_workingFolderIsGame ? Environment.CurrentDirectory : null);

    /// <summary>Whether the game folder is the working folder because nothing names one (<c>run</c>: Steam starts a game in its folder).</summary>
    public bool TakesWorkingFolder(ParseResult parse) =>
        _workingFolderIsGame && parse.GetValue(Game) is null && (parse.GetValue(Profile) is not { } name || ProfileStore.Load(name).Game is null);

    /// <summary>The cache folder the command line names (--cache, else the profile's), null for the default or with --no-cache.</summary>
    public string? CacheFolder(ParseResult parse) => parse.GetValue(NoCache) ? null
        : parse.GetValue(Cache) ?? (parse.GetValue(Profile) is { } name ? ProfileStore.Load(name).Options.Cache : null);

    /// <summary>
    /// ARCHIVE as the game-relative path lookups compare (<see cref="GamePaths.Parse"/>: "." and empty steps dropped, '..'
    /// refused), or an absolute path inside the game folder, as written or once symlinks are resolved. An absolute path
    /// elsewhere is an <see cref="IOException"/>.
    /// </summary>
    public static string RelativeArchive(string archive, string gameFolder)
    {
        if (!Path.IsPathRooted(archive))
            return GamePaths.Parse(archive); // ./CPK//EN.CPK is CPK/EN.CPK, modded, not the game's original
        foreach (var (root, path) in new[] { (Path.GetFullPath(gameFolder), Path.GetFullPath(archive)), (RealPaths.Of(gameFolder), RealPaths.Location(archive)) })
            if (RealPaths.IsInside(root, path) && !RealPaths.Same(root.TrimEnd(Path.DirectorySeparatorChar), path))
                return GamePaths.Parse(Path.GetRelativePath(root, path));
        throw new IOException($"{archive}: not inside the game folder {Path.GetFullPath(gameFolder)}; "
            + "give a file of the game, relative to it (such as data/textures.afs) or inside it");
    }

    /// <summary><c>--language LANG</c>: a Localisation Framework id in any case, parsed to its spelling (<c>zh-hans</c> → <c>zh-Hans</c>).</summary>
    internal static Option<string> LanguageOption()
    {
        var option = CliOptions.Word("--language", "The game's language, whose FEmulator/L10N/LANG folders apply, any case "
            + "(default: the language Steam records for the game, else en)", [.. LanguageIds.Known], ignoreCase: true);
        option.HelpName = "LANG";
        return option;
    }

    /// <summary>
    /// For a command that stores into the cache (<c>build</c>): the cache folder must take a new file
    /// (<see cref="CacheFolderAccess.WhyNotWritable"/>); else an <see cref="IOException"/> naming the folder, what is wrong and
    /// the ways out.
    /// </summary>
    public static void RequireWritableCache(string folder, bool merging)
    {
        if (CacheFolderAccess.WhyNotWritable(folder) is not { } problem)
            return;
        var ways = merging ? "give a writable folder with --cache DIR, or drop --merge and build with --no-cache"
            : "build with --no-cache, or give a writable folder with --cache DIR";
        throw new IOException($"{Path.GetFullPath(folder)}: the cache folder {problem}; {ways}");
    }

    /// <summary>The cache at <paramref name="folder"/> (the default folder when null), warning on stderr about damaged entries.</summary>
    public static MergedFileCache OpenCache(string? folder, CliConsole console) =>
        OpenCache(folder, message => console.Error.WriteLine($"archiveemu: warning: {message}"));

    /// <summary>The cache at <paramref name="folder"/> (the default folder when null), its warnings (damage, a full disk) to <paramref name="warn"/>.</summary>
    public static MergedFileCache OpenCache(string? folder, Action<string> warn, Action<string>? waiting = null) =>
        new(folder ?? MergedFileCache.DefaultFolder(), new CacheOptions(Warn: warn, Waiting: waiting));
}

/// <summary>What a game command serves: the game folder and the mod folders, lowest priority first.</summary>
internal sealed record GameChoice(string Game, string[] Mods)
{
    /// <summary>The Reloaded-II setup the mods came from (<c>--reloaded</c>, <c>--reloaded-dir</c>), for the report.</summary>
    public ReloadedSetup? Reloaded { get; init; }

    /// <summary>The profile given with <c>--profile</c>: its options are the command's defaults.</summary>
    public Profile? Profile { get; init; }
}
