namespace ArchiveEmu.Core;

/// <summary>
/// What an <see cref="ArchiveEmulator"/>'s mod folders and inputs make of the game, as <c>archiveemu build</c> reports it: the
/// language, how each mod folder was read, the merged tables, the warnings and the conflicts. A snapshot: it never changes
/// (ask <see cref="ArchiveEmulator.Report"/> again after a change). Its lists are compared by reference, as records compare them.
/// </summary>
/// <param name="Language">The language whose <c>FEmulator/L10N/&lt;id&gt;/</c> folders apply, and where that choice came from.</param>
/// <param name="Mods">How each mod folder was read, lowest priority first (<see cref="ArchiveEmulator.ModFolders"/>' order).</param>
/// <param name="Tables">The Persona tables merged from several mods' files, field by field.</param>
/// <param name="Warnings">
/// What looks like a mistake in the mods (a misspelled layout folder, a mod of which nothing applies), one line each; the cache's
/// warnings go to <see cref="ArchiveEmulatorOptions.Warn"/> as they happen.
/// </param>
/// <param name="Conflicts">Every entry or whole file several mods change, with the one that wins.</param>
public sealed record ModSetReport(
    ModSetLanguage Language,
    IReadOnlyList<ModFolderReport> Mods,
    IReadOnlyList<MergedTableReport> Tables,
    IReadOnlyList<string> Warnings,
    IReadOnlyList<EntryConflict> Conflicts);

/// <summary>The game's language as a Localisation Framework id, and where that choice came from.</summary>
/// <param name="Id">The framework's id, spelled as it spells it (<c>en</c>, <c>es</c>, <c>zh-Hans</c>).</param>
/// <param name="Source">
/// Why this one: <c>ArchiveEmulatorOptions.Language</c> when the options chose it, else <c>default: </c> and why the default
/// applies (from <c>archiveemu</c>, also the Steam manifest and its setting when Steam's record named it).
/// </param>
public sealed record ModSetLanguage(string Id, string Source);

/// <summary>How a mod folder is laid out, which decides which of its folders are read.</summary>
public enum ModFolderLayout
{
    /// <summary>The mod mirrors the game folder: each file replaces (or adds) the game file at the same path.</summary>
    Mirror,

    /// <summary>
    /// A Reloaded-II mod (its root holds <c>ModConfig.json</c>): only its layout folders are read (<c>Redirector</c>,
    /// <c>FEmulator/…</c>, <c>CRIFsV2Hook/CPK</c>, <c>P5REssentials/CPK</c>, …), nothing at its root is a game file.
    /// </summary>
    ReloadedII,
}

/// <summary>How one mod folder was read: its layout, the folders it applies and the files it does not apply, with why.</summary>
/// <param name="Name">The mod's folder name, as reports and conflicts name the mod.</param>
/// <param name="Folder">The mod folder's full path.</param>
/// <param name="Layout">Whether it mirrors the game folder or is a Reloaded-II mod.</param>
/// <param name="AppliedFolders">The layout folders whose files it applies (<c>P5REssentials/CPK</c>, <c>FEmulator/PAK</c>, …); <c>mirror</c> for a mirroring mod.</param>
/// <param name="LanguageFolders">The language folders applied for the game's language (<c>FEmulator/L10N/es: 1 file(s)</c>).</param>
/// <param name="NotApplied">Its files not applied, one group per folder, each with why.</param>
public sealed record ModFolderReport(
    string Name,
    string Folder,
    ModFolderLayout Layout,
    IReadOnlyList<string> AppliedFolders,
    IReadOnlyList<string> LanguageFolders,
    IReadOnlyList<FilesNotApplied> NotApplied)
{
    /// <summary>Whether nothing of the mod reaches the game (a mod made only of scripts compiled inside the game, or of nothing).</summary>
    public bool AppliesNothing => AppliedFolders.Count == 0;
}

/// <summary>Files of one folder of a mod that ArchiveEmu does not apply, and why.</summary>
/// <param name="Folder">The folder, relative to the mod's root with '/' (<c>FEmulator/BF</c>, <c>bgme</c>; empty for the root).</param>
/// <param name="Files">The files, relative to <paramref name="Folder"/> with '/', in ordinal order.</param>
/// <param name="Reason">Why, in words a player reads.</param>
/// <param name="Quiet">Whether it is a choice rather than a problem (a language folder of another language): listed, never a warning.</param>
public sealed record FilesNotApplied(string Folder, IReadOnlyList<string> Files, string Reason, bool Quiet);

/// <summary>A Persona table merged from several mods' files field by field (Persona Essentials' rule), and what each mod gave.</summary>
/// <param name="Path">The table's path through its archive, as <c>build</c> and <c>ls</c> name it (<c>CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL</c>).</param>
/// <param name="Archive">The archive of the game folder it is served in (<c>CPK/EN.CPK</c>), a route <see cref="ArchiveEmulator.Open"/> takes.</param>
/// <param name="Table">The table's path from that archive's root (<c>BATTLE/TABLE/UNIT.TBL</c>).</param>
/// <param name="Mods">The mods whose files were merged, in load order, with how many fields each changed.</param>
/// <param name="Conflicts">Every field two or more mods changed, and which won.</param>
/// <param name="NotApplied">Each mod file, or part of one, not merged, with why; one line each.</param>
public sealed record MergedTableReport(
    string Path,
    string Archive,
    string Table,
    IReadOnlyList<MergedTableMod> Mods,
    IReadOnlyList<MergedFieldConflict> Conflicts,
    IReadOnlyList<string> NotApplied);

/// <summary>What one mod gave a merged table.</summary>
/// <param name="Mod">The mod's folder name.</param>
/// <param name="Fields">The fields its file changed from the original.</param>
/// <param name="FieldsKept">How many of those no later mod changed, so are served as this mod made them.</param>
public sealed record MergedTableMod(string Mod, int Fields, int FieldsKept);

/// <summary>A field of a merged table that two or more mods changed; the last of them in load order wins.</summary>
/// <param name="Segment">The table's segment (for <c>NAME.TBL</c>, the pair of segments that hold its strings).</param>
/// <param name="Offset">Where the field starts in the segment's data (for <c>NAME.TBL</c>, the string's index).</param>
/// <param name="Width">The field's width in bytes (for <c>NAME.TBL</c>, the winning string's length).</param>
/// <param name="Mods">The mods that changed it, in load order.</param>
/// <param name="Winner">The mod whose bytes are served.</param>
public sealed record MergedFieldConflict(int Segment, long Offset, int Width, IReadOnlyList<string> Mods, string Winner);

/// <summary>An entry of an archive, or a whole file, that several mods change; the last of them in priority order wins.</summary>
/// <param name="Target">The archive or file, relative to the game folder with '/'.</param>
/// <param name="Entry">The entry (a name or an index), or null when mods replace the whole file.</param>
/// <param name="Mods">Every mod that changes it, in priority order.</param>
/// <param name="Winner">The mod whose version is served.</param>
/// <param name="Rules">The rule each of <paramref name="Mods"/> used, in the same order (<c>mirror</c>, <c>P5REssentials/CPK</c>, …); empty when not known.</param>
public sealed record EntryConflict(string Target, string? Entry, IReadOnlyList<string> Mods, string Winner, IReadOnlyList<string> Rules);
