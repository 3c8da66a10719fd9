using System.CommandLine;
using ArchiveEmu.Cli.Profiles;
using ArchiveEmu.Core.Machine.ReloadedII;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// <c>--reloaded</c> and <c>--reloaded-dir PATH</c>: the mods of the player's Reloaded-II setup, as it is (docs/RELOADED-II.md). A
/// flag, so it never takes the next argument as its value.
/// </summary>
internal sealed class ReloadedOptions
{
    /// <summary>Where <c>--reloaded</c> looks; tests point it at a fake home folder.</summary>
    internal static Func<ReloadedSearchRoots> SearchRoots { get; set; } = ReloadedSearchRoots.FromEnvironment;

    public Option<bool> Find { get; } = new("--reloaded")
    {
        Description = "Take the mods from the game's Reloaded-II setup, found in its Proton prefix, ~/.wine or Reloaded-II's installer folder",
    };

    public Option<string> Folder { get; } = new("--reloaded-dir")
    {
        Description = "Take the mods from the Reloaded-II setup in this folder (the one holding ReloadedII.json, or a portable one holding Apps/ and Mods/)",
        HelpName = "PATH",
    };

    public void AddTo(Command command)
    {
        command.Options.Add(Find);
        command.Options.Add(Folder);
        command.Validate(result => result.GetValue(Find) && result.Given(Folder)
            ? "--reloaded and --reloaded-dir contradict each other; give one" : null);
    }

    /// <summary>Whether one of the options is given (then <c>--mod</c> is optional).</summary>
    public bool Given(System.CommandLine.Parsing.CommandResult result) => result.GetValue(Find) || result.Given(Folder);

    /// <summary>The setup the options name for <paramref name="game"/>, or null when neither is given; its warnings, and whether a mod
    /// served (its own or one of <paramref name="otherMods"/>) would be applied twice, go to <paramref name="warn"/>.</summary>
    /// <param name="profile">The profile given, whose reloaded and reloadedDir apply unless the command line gives either option.</param>
    public ReloadedSetup? Read(ParseResult parse, string game, IReadOnlyList<string> otherMods, Action<string> warn, Profile? profile = null)
    {
        bool given = parse.GetValue(Find) || parse.GetValue(Folder) is not null;
        var (find, folder) = given ? (parse.GetValue(Find), parse.GetValue(Folder)) : (profile?.Reloaded == true, profile?.ReloadedDir);
        ReloadedLocation location;
        if (folder is not null)
        {
            if (!Directory.Exists(folder))
                throw new IOException($"{folder}: --reloaded-dir is not a folder");
            var full = Path.GetFullPath(folder);
            location = new ReloadedLocation(full, WinePaths.PrefixAbove(full), "--reloaded-dir");
        }
        else if (find)
            location = ReloadedSearch.Find(game, SearchRoots());
        else
            return null;
        var setup = ReloadedSetup.Read(game, location);
        foreach (var warning in setup.Warnings)
            warn(warning);
        if (setup.DoubleApplicationWarning([.. setup.ModFolders, .. otherMods], game) is { } twice)
            warn(twice);
        return setup;
    }
}
