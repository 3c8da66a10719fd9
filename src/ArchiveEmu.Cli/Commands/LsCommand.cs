using System.Text.Json;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu ls</c>: the entries of an emulated archive, with size, state and origin.</summary>
internal sealed class LsCommand : ICommand
{
    public string Name => "ls";
    public string Usage => "archiveemu ls --game DIR --mod DIR [--mod DIR…] [--cache DIR | --no-cache] ARCHIVE [--json]";

    public int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var cl = new CommandLine(args, GameArguments.ValueOptions, [.. GameArguments.FlagOptions, "json"]);
        var target = cl.SinglePositional("ARCHIVE");
        var game = GameArguments.Resolve(cl, console);
        using var archive = game.OpenArchive(target);

        if (cl.Flag("json"))
        {
            var doc = new
            {
                archive = target,
                format = archive.Original.Format.Name,
                size = archive.File.Length,
                entries = archive.Entries.Select(e => new { index = e.Index, name = e.Name, size = e.Size, state = StateName(e.State), origin = e.Origin }),
            };
            console.Out.WriteLine(JsonSerializer.Serialize(doc, JsonOutput.Options));
            return 0;
        }

        console.Out.WriteLine($"{target}  {archive.Original.Format.Name}  {archive.Entries.Count(e => e.State != EntryState.Deleted)} entries  {archive.File.Length} bytes");
        console.Out.WriteLine($"{"index",6}  {"size",10}  {"state",-8}  {"origin",-16}  name");
        foreach (var e in archive.Entries)
            console.Out.WriteLine($"{e.Index,6}  {e.Size,10}  {StateName(e.State),-8}  {e.Origin,-16}  {e.Name ?? "-"}");
        return 0;
    }

    internal static string StateName(EntryState state) => state.ToString().ToLowerInvariant();
}
