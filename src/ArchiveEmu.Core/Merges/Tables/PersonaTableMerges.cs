using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Persona Essentials' table merges (docs/TABLES.md) as an <see cref="IEntryMerge"/>: in a game folder holding P5R.exe, P4G.exe
/// or P3P.exe, the catalogued tables inside its CPKs (and inside the PAKs stored in them) are merged field by field.
/// </summary>
internal sealed class PersonaTableMerges : IEntryMerge
{
    public static PersonaTableMerges Instance { get; } = new();

    private PersonaTableMerges()
    {
    }

    // Essentials binds tables by their path in a CPK (CRI FileSystem V2 Hook's bind map), so only CPKs hold them.
    public bool MergesInside(IArchiveFormat format) => format is CpkFormat;

    public IGameMerges? For(string gameFolder) => PersonaGames.Detect(gameFolder) is { } game ? new Game(game) : null;

    private sealed class Game(PersonaGame game) : IGameMerges
    {
        public MergeClaim? Claim(string entryPath)
        {
            if (TableCatalog.Find(game, entryPath) is { } table)
                return new MergeClaim(table.Path, null);
            return TableCatalog.CompanionAt(game, entryPath) is { } beside ? new MergeClaim(beside.Table.Path, beside.Companion) : null;
        }

        /// <summary>
        /// Merges against the first candidate (Essentials looks in the language CPK, then the base CPK, then the rest:
        /// p5rpc.modloader <c>MergeUtils.TryFindFileInAnyCpk</c>). A table whose text differs by language takes, when the game is not
        /// in English, only the files a mod's language folder gives (Essentials' rule). A game table that is not one is reported and
        /// left to the last mod's file.
        /// </summary>
        public (EntryInput? Input, EntryMergeReport Report) Merge(EntryMergeRequest request)
        {
            var table = TableCatalog.Find(game, request.Path) ?? throw new ArgumentException($"{request.Path} is no {game} table", nameof(request));
            var original = request.Originals[0];
            var originalInput = EntryInput.FromFileSlice(original.Content.Path, original.Content.Offset, original.Content.Length);
            var language = request.Language;
            var skipped = table.OneLanguage && !language.Equals("en", StringComparison.OrdinalIgnoreCase)
                ? request.Mods.Where(f => f.Localised is null).ToList() : [];
            var mods = request.Mods.Except(skipped).Select(f => new TableModFile(f.Mod, EntryInput.FromFile(f.Served), f.Companion)).ToList();
            var notLocalised = skipped.Select(f => $"{f.Mod}: {f.File} is not localised for {language} (no FEmulator/L10N/{language}/ file replaces it); "
                + $"{table.Path} differs by language, so, as Persona Essentials does, only files localised for the game's language are merged");
            if (mods.Count == 0)
                return (originalInput, new EntryMergeReport(table.Path, [], [], notLocalised.ToArray()) { Original = original.Archive });
            var (input, report) = MergeOne(original.Name, table, request.Mods[^1].Mod, originalInput, mods);
            return (input, report with { NotApplied = [.. notLocalised, .. report.NotApplied], Original = original.Archive });
        }

        private static (EntryInput?, EntryMergeReport) MergeOne(string name, MergeableTable table, string lastMod, EntryInput original, List<TableModFile> mods)
        {
            try
            {
                var merged = TableMerger.Merge(table, original, mods);
                return (EntryInput.FromVirtualFile(merged.File, $"merged {name}"), merged.Report);
            }
            catch (InvalidDataException e)
            {
                return (null, new EntryMergeReport(table.Path, [], [], [$"{e.Message}; not merged, {lastMod}'s file replaces it whole"]));
            }
        }
    }
}
