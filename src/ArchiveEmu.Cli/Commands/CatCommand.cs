namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cat</c>: the exact bytes a reader of the modded game folder sees at ARCHIVE.</summary>
internal sealed class CatCommand : ICommand
{
    public string Name => "cat";
    public string Usage => "archiveemu cat --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] ARCHIVE [-o FILE]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, [.. GameArguments.ValueOptions, "o"], GameArguments.FlagOptions);
        var target = cl.SinglePositional("ARCHIVE");
        var game = GameArguments.Resolve(cl, console);
        using var file = game.OpenFile(target);

        if (cl.Value("o") is { } output)
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
