namespace ArchiveEmu.Core.Tables;

/// <summary>What one mod gave a merged table: the fields it changed from the original, and how many of them it kept (no later mod changed them).</summary>
internal sealed record TableModContribution(string Mod, int Fields, int FieldsWon);

/// <summary>
/// A field two or more mods changed: in segment <see cref="Segment"/>, <see cref="Width"/> bytes at <see cref="Offset"/>
/// of the segment's data (for NAME.TBL: segment pair, string index, the winner's string length), the mods in load order,
/// and the one whose bytes are served (the last).
/// </summary>
internal sealed record TableConflict(int Segment, long Offset, int Width, IReadOnlyList<string> Mods, string Winner);

/// <summary>How a table was merged: per mod what it contributed, every field several mods changed, and every mod file (or part of one) not applied, with why.</summary>
internal sealed record TableMergeReport(
    string Path,
    IReadOnlyList<TableModContribution> Mods,
    IReadOnlyList<TableConflict> Conflicts,
    IReadOnlyList<string> NotApplied);

/// <summary>A merged table: the emulated file to serve in place of the original entry, and how it was merged.</summary>
internal sealed record MergedTable(VirtualFiles.VirtualFile File, TableMergeReport Report);

/// <summary>
/// One mod's file for a mergeable table, in load order; <see cref="Mod"/> names the mod in the report. A file that
/// replaces one segment whole (<see cref="MergeableTable.Companions"/>) gives its name as <see cref="Companion"/>.
/// </summary>
internal sealed record TableModFile(string Mod, Formats.EntryInput File, string? Companion = null);
