using System.CommandLine;
using ArchiveEmu.Cli.Archives;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu cat</c>: the exact bytes a reader of the modded game folder sees at ARCHIVE.</summary>
internal sealed class CatCommand : ICommand
{
    private readonly GameArguments _game = new();
    private readonly Argument<string> _archive = new("ARCHIVE") { Description = "The file to read, relative to --game (such as data/textures.afs) or a path inside it; below an archive, one of its entries at any depth, named as ls prints it (CPK/EN.CPK/FONT/FONT0.FNT, data/voice.afs/12)" };
    private readonly Option<string> _output = new("-o", "--output") { Description = "Write the bytes to FILE (atomically) instead of stdout", HelpName = "FILE" };
    private readonly Option<bool> _force = new("--force") { Description = "Write -o even inside the game or a mod folder, or over a file it reads" };
    private readonly Option<bool> _decode = new("--decode") { Description = "For an entry stored encoded (a CRILAYLA CPK entry): write its decoded content, not the stored bytes" };

    public string Name => "cat";
    public string Usage => "archiveemu cat --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] [--language LANG] ARCHIVE[/ENTRY] [--decode] [-o FILE [--force]]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "Write the exact bytes a reader of the modded game folder sees at ARCHIVE, or at one entry of an emulated archive"));
        command.Arguments.Add(_archive);
        command.Options.Add(_output);
        command.Options.Add(_force);
        command.Options.Add(_decode);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var game = _game.Open(parse, console);
        var target = GameArguments.RelativeArchive(parse.GetRequiredValue(_archive), game.Plan.GameFolder);
        using var inner = new UntouchedInnerArchives(); // disposed after the file: an entry may be read from a scratch copy it holds
        using var file = OpenTarget(game, target, parse.GetValue(_decode), inner);

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

    // A path below an archive (CPK/EN.CPK/FONT/FONT0.FNT) is one entry of the emulated archive, through archives inside it no mod
    // changes (CPK/EN.CPK/FIELD/PACK/FD007_003.ARC/f007.bf); else the whole file, as served.
    private static Core.VirtualFiles.VirtualFile OpenTarget(Core.Serving.EmulatedGame game, string target, bool decode, UntouchedInnerArchives inner)
    {
        if (ArchivePaths.SplitAtEntry(game, target) is not var (archivePath, entry))
            return game.OpenFile(target);
        using var archive = ArchivePaths.Open(game, archivePath, built: true).Archive;
        var (holder, holderPath, name) = inner.Descend(archive, archivePath, entry);
        return EntryBytes.Open(holder, holderPath, name, decode);
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
