using System.CommandLine;
using System.Text.Json.Nodes;
using ArchiveEmu.Cli.Archives;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Cli.Commands;

/// <summary><c>archiveemu ls</c>: the entries of an emulated archive, with size, state, origin, the mod rule that placed it and what the format says of it (a TXD texture's format).</summary>
internal sealed class LsCommand : ICommand
{
    private readonly GameArguments _game = new(modsRequired: false);
    private readonly Argument<string> _archive = new("ARCHIVE") { Description = "The archive to list, relative to --game (such as data/textures.afs) or a path inside it" };
    private readonly Option<bool> _json = new("--json") { Description = "Write the listing as JSON on stdout" };

    public string Name => "ls";
    public string Usage => "archiveemu ls --game DIR [--mod DIR…] [--cache DIR | --no-cache] [--language LANG] ARCHIVE [--json]";

    public Command Define(CliConsole console)
    {
        var command = _game.AddTo(new Command(Name, "List an emulated archive's entries with size, state and origin"));
        command.Arguments.Add(_archive);
        command.Options.Add(_json);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var game = _game.Open(parse, console);
        foreach (var n in game.Plan.NotApplied.Where(n => !n.Quiet)) // beside the warnings: files of the mods that ArchiveEmu leaves out
            console.Error.WriteLine($"archiveemu: not applied: {n.Line}");
        var target = GameArguments.RelativeArchive(parse.GetRequiredValue(_archive), game.Plan.GameFolder);
        if (TableReport.TryList(game.Plan, target, parse.GetValue(_json), console.Out)) // a merged Persona table lists its segments, not entries
            return 0;
        // An archive inside an archive that mods change inside (models/gta3.img/infernus.txd) is listed as built for its entry.
        using var untouched = new UntouchedInnerArchives(); // and one inside an emulated archive that no mod changes inside
        var (archive, route) = ArchivePaths.Open(game, target, untouched: untouched);
        using var owned = archive;
        var rules = new InputRules(route);

        if (parse.GetValue(_json))
        {
            var doc = new JsonObject
            {
                ["archive"] = target,
                ["format"] = archive.Original.Format.Name,
                ["size"] = archive.File.Length,
                ["entries"] = JsonOutput.Array(archive.Entries, e => new JsonObject { ["index"] = e.Index, ["name"] = e.Name, ["size"] = e.Size, ["state"] = StateName(e.State), ["origin"] = e.Origin, ["rule"] = rules.Of(e), ["detail"] = e.Detail }),
            };
            JsonOutput.Write(console.Out, doc);
            return 0;
        }

        // An index format keeps a deleted entry's slot (empty, still counted); a name format drops the entry: it is
        // listed last, without an index: its old one may be another entry's now.
        bool Gone(EmulatedEntry e) => e.State == EntryState.Deleted && archive.Original.Format.Addressing == EntryAddressing.ByName;
        var kept = archive.Entries.Where(e => !Gone(e)).ToArray();
        var dropped = archive.Entries.Where(Gone).ToArray();
        var counted = kept.Length == 1 ? "1 entry" : $"{kept.Length} entries";
        var deleted = dropped.Length == 0 ? "" : $" (and {dropped.Length} deleted)";
        console.Out.WriteLine($"{target}  {archive.Original.Format.Name}  {counted}{deleted}  {archive.File.Length} bytes");
        console.Out.WriteLine($"{"index",6}  {"size",10}  {"state",-8}  {"origin",-16}  {"rule",-28}  name");
        foreach (var e in kept)
            console.Out.WriteLine($"{e.Index,6}  {e.Size,10}  {StateName(e.State),-8}  {e.Origin,-16}  {rules.Of(e) ?? "-",-28}  {e.Name ?? "-"}{Detail(e)}");
        foreach (var e in dropped)
            console.Out.WriteLine($"{"-",6}  {e.Size,10}  {StateName(e.State),-8}  {e.Origin,-16}  {rules.Of(e) ?? "-",-28}  {e.Name ?? "-"}{Detail(e)}");
        return 0;
    }

    // What the format says of an entry beyond its size (a TXD texture's pixel format, size and mips), after the name.
    private static string Detail(EmulatedEntry e) => e.Detail is null ? "" : $"  ({e.Detail})";

    internal static string StateName(EntryState state) => state.ToString().ToLowerInvariant();
}
