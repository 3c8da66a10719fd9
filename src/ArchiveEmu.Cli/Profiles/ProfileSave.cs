using ArchiveEmu.Core.Routing;
using System.CommandLine;
using System.Text.Json;
using ArchiveEmu.Cli.Commands;

namespace ArchiveEmu.Cli.Profiles;

/// <summary>
/// <c>archiveemu profile save NAME --game DIR [--mod DIR…] [options of run]</c>: checks the folders as <c>build</c> and
/// <c>run</c> would (they exist, no mod inside the game), then writes the profile with absolute paths and prints it.
/// </summary>
internal sealed class ProfileSave
{
    private readonly Argument<string> _name = ProfileStore.NameArgument();
    private readonly Option<string> _game = new("--game") { Description = "The game folder, as shipped", HelpName = "DIR" };
    private readonly Option<string[]> _mods = new("--mod") { Description = "A mod folder; repeat for more, lowest priority first", HelpName = "DIR", Arity = ArgumentArity.OneOrMore };
    private readonly Option<bool> _reloaded = new("--reloaded") { Description = "Take the mods from the Reloaded-II setup found for the game" };
    private readonly Option<string> _reloadedDir = new("--reloaded-dir") { Description = "Take the mods from the Reloaded-II setup in this folder (the one holding ReloadedII.json, or a portable one holding Apps/ and Mods/)", HelpName = "PATH" };
    private readonly Option<string> _cache = new("--cache") { Description = "The merged file cache folder (default: ~/.cache/archiveemu)", HelpName = "DIR" };
    private readonly Option<string> _merge = MountArguments.MergeOption();
    private readonly Option<string> _compress = MountArguments.CompressOption();
    private readonly Option<string> _language = GameArguments.LanguageOption();
    private readonly Option<bool> _ignoreCase = MountArguments.IgnoreCaseOption(" (the profile's default)");
    private readonly Option<bool> _caseSensitive = MountArguments.CaseSensitiveOption();

    public Command Define(CliConsole console)
    {
        var command = new Command("save", "Save the game, mods and options given under NAME (replacing a profile of that name)")
        {
            _name, _game, _mods, _reloaded, _reloadedDir, _cache, _merge, _compress, _language, _ignoreCase, _caseSensitive,
        };
        command.Validate(result => result.Given(_game) ? null : "missing --game DIR");
        command.Validate(result => result.Given(_mods) || result.GetValue(_reloaded) || result.Given(_reloadedDir)
            ? null : "missing --mod DIR (or --reloaded, or --reloaded-dir PATH)");
        command.Validate(result => result.GetValue(_ignoreCase) && result.GetValue(_caseSensitive) ? "--ignore-case and --case-sensitive contradict each other" : null);
        command.Validate(result => result.GetValue(_game) is { } game ? ModFolders.InsideTheGame(game, result.GetValue(_mods) ?? []) : null);
        return command.Runs(parse => Save(parse, console));
    }

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
            Options = new ProfileOptions
            {
                Merge = parse.GetValue(_merge) ?? "auto",
                Compress = parse.GetValue(_compress) ?? "auto",
                IgnoreCase = !parse.GetValue(_caseSensitive), // a profile is for run, which serves Wine's spellings by default
                Language = parse.GetValue(_language),
                Cache = parse.GetValue(_cache) is { } cache ? Path.GetFullPath(cache) : null,
            },
        };
        var name = parse.GetRequiredValue(_name);
        bool replaced = File.Exists(ProfileStore.PathOf(name));
        ProfileStore.Save(name, profile);
        console.Out.WriteLine($"{(replaced ? "replaced" : "saved")} profile {name} in {ProfileStore.PathOf(name)}:");
        console.Out.WriteLine(JsonSerializer.Serialize(profile, ProfileJson.Default.Profile));
        return 0;
    }
}
