using System.CommandLine;
using System.Text.Json;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Profiles;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu profile save NAME --game DIR [--mod DIR…] [options of run]</c>: checks the folders as <c>build</c> and
/// <c>run</c> would (they exist, no mod inside the game), then writes the profile with absolute paths and prints it.
/// </summary>
internal sealed class ProfileSaveCommand
{
    private readonly Argument<string> _name = ProfileStore.NameArgument();
    private readonly Option<string> _game = new("--game") { Description = "The game folder, as shipped", HelpName = "DIR" };
    private readonly Option<string[]> _mods = new("--mod") { Description = "A mod folder; repeat for more, lowest priority first", HelpName = "DIR", Arity = ArgumentArity.OneOrMore };
    private readonly Option<bool> _reloaded = new("--reloaded") { Description = "Take the mods from the Reloaded-II setup found for the game" };
    private readonly Option<string> _reloadedDir = new("--reloaded-dir") { Description = "Take the mods from the Reloaded-II setup in this folder (the one holding ReloadedII.json, or a portable one holding Apps/ and Mods/)", HelpName = "PATH" };
    private readonly ServingArguments _serving = new() // what run serves, no --no-cache nor --verify-content: a profile saves a cache or none
    {
        Merge = ServingArguments.MergeOption(),
        Compress = ServingArguments.CompressOption(),
        LetterCase = ServingArguments.LetterCaseOptions(" (the profile's default)"),
    };

    public Command Define(CliConsole console)
    {
        var command = new Command("save", "Save the game, mods and options given under NAME (replacing a profile of that name)")
        {
            _name, _game, _mods, _reloaded, _reloadedDir,
        };
        _serving.AddTo(command);
        _serving.AddCommandsOwnTo(command);
        command.Validate(result => result.Given(_game) ? null : "missing --game DIR");
        command.Validate(result => result.Given(_mods) || result.GetValue(_reloaded) || result.Given(_reloadedDir)
            ? null : "missing --mod DIR (or --reloaded, or --reloaded-dir PATH)");
        command.Validate(result => result.GetValue(_game) is { } game ? ModFolders.InsideTheGame(game, result.GetValue(_mods) ?? []) : null);
        return command.Runs(parse => Save(parse, console));
    }

    /// <summary>The options as saved: each given, else its default written out, so the file says what run will do; the cache as a full path.</summary>
    private static ServingOptions Saved(ServingOptions given) => given with
    {
        Merge = given.Merge ?? "auto",
        Compress = given.Compress ?? "auto",
        IgnoreCase = given.IgnoreCase ?? true, // a profile is for run, which serves Wine's spellings by default
        Cache = given.Cache is { } cache ? Path.GetFullPath(cache) : null,
    };

    private int Save(ParseResult parse, CliConsole console)
    {
        var game = Path.GetFullPath(parse.GetRequiredValue(_game));
        var odd = new List<string>();
        var mods = ModFolders.Distinct(parse.GetValue(_mods) ?? [], odd).Select(m => Path.GetFullPath(m)).ToArray();
        odd.ForEach(warning => console.Error.WriteLine($"archiveemu: warning: {warning}"));
        var reloadedDir = parse.GetValue(_reloadedDir) is { } dir ? Path.GetFullPath(dir) : null;
        foreach (var (folder, what) in mods.Select(m => ((string?)m, "mod")).Prepend((game, "game")).Append((reloadedDir, "Reloaded-II")))
            if (folder is not null && !Directory.Exists(folder))
                throw new DirectoryNotFoundException($"{(what == "Reloaded-II" ? $"{folder}: {what} folder not found" : MissingFolder.Describe(folder, what))}; nothing saved");
        var profile = new Profile
        {
            Game = game,
            Mods = mods,
            Reloaded = parse.GetValue(_reloaded),
            ReloadedDir = reloadedDir,
            Options = Saved(_serving.Read(parse)),
        };
        var name = parse.GetRequiredValue(_name);
        bool replaced = File.Exists(ProfileStore.PathOf(name));
        ProfileStore.Save(name, profile);
        console.Out.WriteLine($"{(replaced ? "replaced" : "saved")} profile {name} in {ProfileStore.PathOf(name)}:");
        console.Out.WriteLine(JsonSerializer.Serialize(profile, ProfileJson.Default.Profile));
        return 0;
    }
}
