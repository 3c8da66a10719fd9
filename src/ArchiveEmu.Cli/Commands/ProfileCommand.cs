using System.CommandLine;
using ArchiveEmu.Cli.Profiles;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu profile save|ls|show|rm</c>: a game, its mods and the serving options saved under a name, so the Steam launch
/// line is <c>archiveemu run --profile NAME -- %command%</c> (<see cref="ProfileStore"/> keeps the files).
/// </summary>
internal sealed class ProfileCommand : ICommand
{
    public string Name => "profile";
    public string Usage => "archiveemu profile save NAME --game DIR [--mod DIR…] [--reloaded] [--reloaded-dir PATH] [--cache DIR] [--merge auto|always|never] "
        + "[--compress auto|lz4|none] [--language LANG] [--case-sensitive] | ls | show NAME | rm NAME";

    public Command Define(CliConsole console)
    {
        return new Command(Name, $"Save a game, its mods and options under a name, for --profile NAME (kept in {ProfileStore.Folder})")
        {
            new ProfileSaveCommand().Define(console),
            new Command("ls", "List the profiles: name and game").Runs(_ => List(console)),
            Named("show", "Print a profile's JSON", (name, _) => Show(name, console)),
            Named("rm", "Remove a profile", (name, _) => Remove(name, console)),
        };
    }

    /// <summary>A subcommand taking one profile NAME.</summary>
    private static Command Named(string verb, string description, Func<string, ParseResult, int> run)
    {
        var name = ProfileStore.NameArgument();
        return new Command(verb, description) { name }.Runs(parse => run(parse.GetRequiredValue(name), parse));
    }

    private static int List(CliConsole console)
    {
        var names = ProfileStore.Names().ToList();
        if (names.Count == 0)
        {
            console.Error.WriteLine($"archiveemu profile ls: no profiles in {ProfileStore.Folder} (archiveemu profile save NAME … makes one)");
            return 0;
        }
        int width = names.Max(n => n.Length) + 2;
        int damaged = 0;
        foreach (var name in names)
        {
            try
            {
                console.Out.WriteLine($"{name.PadRight(width)}{ProfileStore.Read(ProfileStore.PathOf(name)).Game}");
            }
            catch (Exception e) when (e is InvalidDataException or IOException or UnauthorizedAccessException)
            {
                damaged++;
                console.Out.WriteLine($"{name.PadRight(width)}(damaged)");
                console.Error.WriteLine($"archiveemu profile ls: {UsageErrors.OneLine(e.Message)}");
            }
        }
        return damaged == 0 ? 0 : 1;
    }

    private static int Show(string name, CliConsole console)
    {
        ProfileStore.Load(name); // refuses a damaged file, as --profile would
        console.Out.Write(File.ReadAllText(ProfileStore.PathOf(name)));
        return 0;
    }

    private static int Remove(string name, CliConsole console)
    {
        if (!ProfileStore.Remove(name))
            throw new FileNotFoundException($"{ProfileStore.PathOf(name)}: no profile named {name}");
        console.Out.WriteLine($"removed profile {name} ({ProfileStore.PathOf(name)})");
        return 0;
    }
}
