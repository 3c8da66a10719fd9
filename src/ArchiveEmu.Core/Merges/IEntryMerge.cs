using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges;

/// <summary>
/// A game loader's rule for serving several mods' files for one entry merged, rather than the later mod's file whole (Persona
/// Essentials' tables, docs/TABLES.md). Registered in <see cref="EntryMerges"/> as formats are in ArchiveFormats, so routing
/// names no game's merges: it asks which entries each one claims, collects the mods' files for those, and hands them over.
/// </summary>
internal interface IEntryMerge
{
    /// <summary>
    /// Whether entries inside a game folder's archive of <paramref name="format"/> may be merged (Persona's: CPKs only): asked
    /// first, so an archive no merge looks into costs no look at the game folder.
    /// </summary>
    bool MergesInside(IArchiveFormat format);

    /// <summary>This merge's rules for the game and mods of <paramref name="context"/>, or null when it merges nothing there.</summary>
    IGameMerges? For(MergeContext context);
}

/// <summary>
/// What a merge is asked for: the game folder (to tell the game) and every mod loaded with it in load order, those ArchiveEmu
/// serves files of and those it does not (code only: frameworks such as a merging mod), each by its ModId when it has one.
/// </summary>
internal sealed record MergeContext(string GameFolder, IReadOnlyList<LoadedMod> Mods)
{
    private HashSet<string>? _executables;

    /// <summary>
    /// Whether the game folder holds the executable <paramref name="name"/>, letter case aside: how a merge tells its game, as the
    /// game loaders' mods are bound to it (Reloaded-II runs a mod for the application its <c>SupportedAppId</c> names). The folder
    /// is listed once, however many merges ask.
    /// </summary>
    public bool Holds(string name) => (_executables ??= Executables()).Contains(name);

    private HashSet<string> Executables() => Directory.Exists(GameFolder)
        ? Directory.EnumerateFiles(GameFolder, "*.exe", new EnumerationOptions { MatchCasing = MatchCasing.CaseInsensitive })
            .Select(f => Path.GetFileName(f)).ToHashSet(StringComparer.OrdinalIgnoreCase)
        : [];

    /// <summary>The loaded mod whose ModId is <paramref name="id"/> (letter case aside, as Reloaded-II compares ids), or null.</summary>
    public LoadedMod? Loaded(string id) => Mods.LastOrDefault(m => string.Equals(m.Id, id, StringComparison.OrdinalIgnoreCase));
}

/// <summary>A loaded mod: its ModId (null without a readable ModConfig.json), its folder, and whether ArchiveEmu serves its files.</summary>
internal sealed record LoadedMod(string? Id, string Folder, bool Served);

/// <summary>One game's entry merges: the entries they claim and how each is merged.</summary>
internal interface IGameMerges
{
    /// <summary>
    /// What a mod's file for the entry at <paramref name="entryPath"/> is merged into (the path from such an archive's root, through
    /// the archives stored in it: <c>init_free.bin/battle/UNIT.TBL</c>; compared ignoring letter case), or null when nothing is.
    /// </summary>
    MergeClaim? Claim(string entryPath);

    /// <summary>
    /// The entry a mod's file named <paramref name="fileName"/> is merged into wherever it lies under a CRI probing folder
    /// (<c>CRIFsV2Hook/CPK</c>, …), or null: a merging mod that finds its inputs by name (P5R's bust-up parameters) rather than
    /// by their path in the game. Such a file is also bound at its own path, as CRI FileSystem V2 Hook binds it.
    /// </summary>
    MergeClaim? ClaimByName(string fileName);

    /// <summary>
    /// Merges <paramref name="request"/>'s mod files over an original it chooses among the request's candidates: the input to serve
    /// (null: not merged, the last mod's file is served whole) and the report, whose <see cref="EntryMergeReport.Original"/> names
    /// the archive the chosen original came from. Never throws for bad mod files: they are reported as not applied.
    /// </summary>
    (EntryInput? Input, EntryMergeReport Report) Merge(EntryMergeRequest request);
}

/// <summary>
/// The entry a mod's file is merged into (<see cref="Path"/>, from the archive's root, as the merge spells it): the file's own,
/// or, for a file that replaces a part of another entry whole (P4G's <c>MSGTBL.bmd</c> beside <c>MSG.TBL</c>), that entry, with
/// the file's name as the merge spells it in <see cref="Companion"/>. Such a file also stays an entry of its own.
/// </summary>
internal sealed record MergeClaim(string Path, string? Companion);

/// <summary>
/// One merged entry's inputs: its path (<see cref="MergeClaim.Path"/>), the candidate originals in the game's archive order (the
/// first is the one the game's loader looks in first), every mod's file for it in load order, and the game's language (a
/// Localisation Framework id).
/// </summary>
internal sealed record EntryMergeRequest(string Path, IReadOnlyList<MergeOriginal> Originals, IReadOnlyList<MergeModFile> Mods, string Language);

/// <summary>A copy of the entry in the game: the game folder's archive holding it, the entry's name as that archive spells it, and its bytes.</summary>
internal sealed record MergeOriginal(string Archive, string Name, ArchiveSource Content);

/// <summary>
/// One mod's file for a merged entry: the mod as reports name it, its file, the file its language folder serves instead
/// (<see cref="Localised"/>, null when none does), and the companion name from its <see cref="MergeClaim"/>, if any.
/// </summary>
internal sealed record MergeModFile(string Mod, string File, string? Localised, string? Companion)
{
    /// <summary>The file whose bytes are merged: the language folder's when it has one.</summary>
    public string Served => Localised ?? File;
}
