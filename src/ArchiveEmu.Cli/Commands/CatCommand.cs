using System.CommandLine;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cat</c>: the exact bytes a reader of the modded game folder sees at ARCHIVE.</summary>
internal sealed class CatCommand : ICommand
{
    private readonly GameArguments _game = new();
    private readonly Argument<string> _archive = new("ARCHIVE") { Description = "The file to read, relative to --game (such as data/textures.afs) or a path inside it" };
    private readonly Option<string> _output = new("-o", "--output") { Description = "Write the bytes to FILE (atomically) instead of stdout", HelpName = "FILE" };
    private readonly Option<bool> _force = new("--force") { Description = "Write -o even inside the game or a mod folder, or over a file it reads" };

    public string Name => "cat";
    public string Usage => "archiveemu cat --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] [--language LANG] ARCHIVE [-o FILE [--force]]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "Write the exact bytes a reader of the modded game folder sees at ARCHIVE"));
        command.Arguments.Add(_archive);
        command.Options.Add(_output);
        command.Options.Add(_force);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var game = _game.Open(parse, console);
        var target = GameArguments.RelativeArchive(parse.GetRequiredValue(_archive), game.Plan.GameFolder);
        using var file = game.OpenFile(target);

        if (parse.GetValue(_output) is { } output)
        {
            if (!parse.GetValue(_force))
                OutputFile.RequireOutside(output, game.Plan, file.Files.Select(f => f.Path).Append(Path.Combine(game.Plan.GameFolder, target)));
            AtomicFile.Write(output, stream => CopyTo(file, stream));
        }
        else
        {
            using var stdout = Console.OpenStandardOutput();
            CopyTo(file, stdout);
        }
        return 0;
    }

    private static void CopyTo(Core.VirtualFiles.VirtualFile file, Stream destination)
    {
        var buffer = new byte[1 << 20];
        for (long at = 0; at < file.Length;)
        {
            int read = file.Read(at, buffer);
            destination.Write(buffer, 0, read);
            at += read;
        }
    }
}
