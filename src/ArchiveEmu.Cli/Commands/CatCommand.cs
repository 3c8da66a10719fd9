using System.CommandLine;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cat</c>: the exact bytes a reader of the modded game folder sees at ARCHIVE.</summary>
internal sealed class CatCommand : ICommand
{
    private readonly GameArguments _game = new();
    private readonly Argument<string> _archive = new("ARCHIVE") { Description = "The file to read, relative to --game (such as data/textures.afs) or a path inside it" };
    private readonly Option<string> _output = new("-o", "--output") { Description = "Write the bytes to FILE (atomically) instead of stdout", HelpName = "FILE" };

    public string Name => "cat";
    public string Usage => "archiveemu cat --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] ARCHIVE [-o FILE]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "Write the exact bytes a reader of the modded game folder sees at ARCHIVE"));
        command.Arguments.Add(_archive);
        command.Options.Add(_output);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var game = _game.Resolve(parse, console);
        var target = GameArguments.RelativeArchive(parse.GetRequiredValue(_archive), game.Plan.GameFolder);
        using var file = game.OpenFile(target);

        if (parse.GetValue(_output) is { } output)
            AtomicFile.Write(output, stream => CopyTo(file, stream));
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
