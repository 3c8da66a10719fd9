using System.CommandLine;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Cli.Profiles;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// The <c>--game DIR --mod DIR… [--reloaded | --reloaded-dir PATH] [--profile NAME]</c> options the game commands share, with
/// their serving options (<see cref="ServingArguments"/>), and the one place that turns a command line into the game it asks
/// for (<see cref="Request"/>): the profile loaded once, its options under the command line's.
/// </summary>
internal sealed class GameArguments
{
    private readonly bool _modsRequired;
    private readonly bool _gameRequired;
    private readonly bool _workingFolderIsGame;
    private readonly bool _storingFromProfile;
    private (ParseResult Parse, Profile? Profile)? _loaded; // the profile --profile names, read once per command line

    public Option<string> Game { get; } = new("--game") { Description = "The game folder, as shipped", HelpName = "DIR" };

    /// <param name="modsRequired">False where the game alone makes sense (<c>ls</c> of an original, to find its entries).</param>
    /// <param name="gameRequired">False where the command means something without a game (<c>doctor</c>: the machine's checks alone).</param>
    /// <param name="workingFolderIsGame">True for <c>run</c>: Steam starts a game in its folder, so no --game means that folder.</param>
    /// <param name="serving">The command's serving options (default: those of every game command, --verify-content included).</param>
    /// <param name="storingFromProfile">True for <c>mount</c> and <c>run</c>, which take a profile's merge and compress (<see cref="ServingOptions.Choose"/>).</param>
    public GameArguments(bool modsRequired = true, bool gameRequired = true, bool workingFolderIsGame = false, ServingArguments? serving = null,
        bool storingFromProfile = false)
    {
        _modsRequired = modsRequired;
        _gameRequired = gameRequired;
        _workingFolderIsGame = workingFolderIsGame;
        _storingFromProfile = storingFromProfile;
        Serving = serving ?? ServingArguments.ForGame(verifyContent: true);
        Mods = new("--mod")
        {
            Description = "A mod folder mirroring the game folder; repeat for more, lowest priority first" + (modsRequired ? "" : " (none: the original)"),
            HelpName = "DIR",
            Arity = ArgumentArity.OneOrMore,
        };
    }

    public Option<string[]> Mods { get; }

    /// <summary>How the game is served: the cache, the language and what the command adds.</summary>
    public ServingArguments Serving { get; }

    /// <summary><c>--reloaded</c> and <c>--reloaded-dir PATH</c>: mods from a Reloaded-II setup, before the <c>--mod</c> folders.</summary>
    public ReloadedOptions Reloaded { get; } = new();

    /// <summary><c>--profile NAME</c>: the saved game, mods and options (<see cref="ProfileStore"/>), under the command line's.</summary>
    public Option<string> Profile { get; } = ProfileStore.Option();

    /// <summary>Adds the options and the rules between them.</summary>
    public Command AddTo(Command command)
    {
        command.Options.Add(Game);
        command.Options.Add(Mods);
        Serving.AddTo(command);
        Reloaded.AddTo(command);
        command.Options.Add(Profile);
        command.Validate(result => result.Given(Game) || result.Given(Profile) || _workingFolderIsGame || !_gameRequired ? null : "missing --game DIR");
        command.Validate(result => _modsRequired && !result.Given(Mods) && !Reloaded.Given(result) && !result.Given(Profile)
            ? "missing --mod DIR (or --reloaded, or --reloaded-dir PATH)" : null);
        command.Validate(result => result.GetValue(Game) is { } game ? ModFolders.InsideTheGame(game, result.GetValue(Mods) ?? []) : null);
        command.Validate(result => ModFolders.SeveralMods(result.GetValue(Mods) ?? []));
        return command;
    }

    /// <summary>
    /// Opens the game the command line asks for (<see cref="Request"/>, then <see cref="EmulatedGame.Open"/>), reading from the cache
    /// unless --no-cache. Warnings about the mods (one given twice, one inside another, a folder that looks meant for an archive but
    /// matches no game file) and about what the game serves (an index far past an archive's end) go to <paramref name="warnings"/>,
    /// or else to stderr.
    /// </summary>
    /// <param name="storePlan">Whether the resolved route plan is kept in the cache folder (a build writes the cache; cat and ls only read it).</param>
    /// <param name="requested">Given the request once it is made (build reports its Reloaded-II setup and merge).</param>
    public EmulatedGame Open(ParseResult parse, CliConsole console, List<string>? warnings = null, bool storePlan = false, Action<GameRequest>? requested = null)
    {
        var said = new List<string>(); // while opening: printed together at the end, a million of one kind cut to 20
        bool opened = false;
        Action<string> warn = warnings is not null ? warnings.Add
            : warning => { if (opened) console.Error.WriteLine($"archiveemu: warning: {warning}"); else said.Add(warning); };
        try
        {
            var request = Request(parse, warn);
            requested?.Invoke(request);
            var serving = request.Serving;
            var cache = RequestedCache.Open(serving.NoCache, serving.Cache, new CacheOptions(Warn: warn, // its warnings (a full disk) in build --json too
                Waiting: message => console.Error.WriteLine($"archiveemu: warning: {message}"))); // a wait for another writer: at once
            var game = EmulatedGame.Open(request.Setup(cache, warn) with { Warn = warn, StorePlan = storePlan });
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
    /// The game the command line asks for: the game folder, the mods in priority order and each once, and how to serve them; what
    /// was odd about the mods goes to <paramref name="warn"/>. Every command that serves a game (build, cat, ls, doctor, mount, run)
    /// asks here. With <c>--profile</c>, as if the profile's options were written before the command line's: <c>--game</c> given
    /// replaces the profile's game, <c>--mod</c> given adds after (over) the profile's mods, <c>--reloaded</c> or
    /// <c>--reloaded-dir</c> given replaces the profile's Reloaded-II choice, and each serving option given replaces the profile's
    /// (<see cref="ServingOptions.Choose"/>). With no game named, <c>run</c> serves the working folder.
    /// </summary>
    public GameRequest Request(ParseResult parse, Action<string> warn)
    {
        var profile = ProfileOf(parse);
        var game = GameFolder(parse) ?? parse.GetRequiredValue(Game);
        string[] given = [.. profile?.Mods ?? [], .. parse.GetValue(Mods) ?? []];
        if (profile is not null && ModFolders.InsideTheGame(game, given) is { } inside)
            throw new IOException($"{ProfileStore.PathOf(parse.GetValue(Profile)!)}: {inside}"); // the command line's own mods were checked while parsing
        var reloaded = Reloaded.Read(parse, game, given, warn, profile); // its mods first, in Reloaded-II's load order, then the --mod folders
        var odd = new List<string>();
        var mods = ModFolders.Distinct([.. reloaded?.ModFolders ?? [], .. given], odd);
        odd.ForEach(warn);
        return new GameRequest(game, mods, ServingOf(parse)) { Reloaded = reloaded, OtherLoadedMods = reloaded?.OtherLoadedFolders ?? [] };
    }

    /// <summary>How the command line asks the game to be served, its options over the profile's.</summary>
    public ServingOptions ServingOf(ParseResult parse) => ServingOptions.Choose(Serving.Read(parse), ProfileOf(parse)?.Options, _storingFromProfile);

    /// <summary>The profile <c>--profile</c> names, loaded on first use; null without one.</summary>
    private Profile? ProfileOf(ParseResult parse)
    {
        if (_loaded is not { } loaded || !ReferenceEquals(loaded.Parse, parse))
            _loaded = loaded = (parse, parse.GetValue(Profile) is { } name ? ProfileStore.Load(name) : null);
        return loaded.Profile;
    }

    /// <summary>The game folder the command line names: --game, else the profile's, else (run) the working folder; null when none.</summary>
    public string? GameFolder(ParseResult parse) =>
        parse.GetValue(Game) ?? ProfileOf(parse)?.Game ?? (_workingFolderIsGame ? Environment.CurrentDirectory : null);

    /// <summary>Whether the game folder is the working folder because nothing names one (<c>run</c>: Steam starts a game in its folder).</summary>
    public bool TakesWorkingFolder(ParseResult parse) => _workingFolderIsGame && parse.GetValue(Game) is null && ProfileOf(parse)?.Game is null;

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

    /// <summary>
    /// For a command that stores into the cache (<c>build</c>): the cache folder must take a new file
    /// (<see cref="CacheFolderAccess.WhyNotWritable"/>); else an <see cref="IOException"/> naming the folder, what is wrong and
    /// the ways out.
    /// </summary>
    public static void RequireWritableCache(MergedFileCache cache, bool merging)
    {
        if (RequestedCache.WhyNotStoring(cache) is not { } why)
            return;
        var ways = merging ? "give a writable folder with --cache DIR, or drop --merge and build with --no-cache"
            : "build with --no-cache, or give a writable folder with --cache DIR";
        throw new IOException($"{why}; {ways}");
    }

    /// <summary>The cache at <paramref name="folder"/> (the default folder when null), warning on stderr about damaged entries.</summary>
    public static MergedFileCache OpenCache(string? folder, CliConsole console) =>
        RequestedCache.Open(noCache: false, folder, new CacheOptions(Warn: message => console.Error.WriteLine($"archiveemu: warning: {message}")))!;
}
