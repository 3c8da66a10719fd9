namespace ArchiveEmu.Core.Merges;

/// <summary>
/// How an entry was merged (<see cref="Path"/>, from its archive's root): per mod what it contributed, every field several mods
/// changed, and every mod file (or part of one) not applied, with why. What build, ls, the mount's log and the kept plan show.
/// </summary>
internal sealed record EntryMergeReport(
    string Path,
    IReadOnlyList<MergeContribution> Mods,
    IReadOnlyList<MergeConflict> Conflicts,
    IReadOnlyList<string> NotApplied)
{
    /// <summary>Where each segment's data lies in the merged file and which mods changed it (empty when the entry was not merged).</summary>
    public IReadOnlyList<MergedSegment> Segments { get; init; } = [];

    /// <summary>The game folder's archive whose copy of the entry was the original (the merge's choice, <see cref="IGameMerges.Merge"/>).</summary>
    public string? Original { get; init; }
}

/// <summary>What one mod gave a merged entry: the fields it changed from the original, and how many of them it kept (no later mod changed them).</summary>
internal sealed record MergeContribution(string Mod, int Fields, int FieldsWon);

/// <summary>
/// A field two or more mods changed: in segment <see cref="Segment"/>, <see cref="Width"/> bytes at <see cref="Offset"/>
/// of the segment's data (for NAME.TBL: segment pair, string index, the winner's string length), the mods in load order,
/// and the one whose bytes are served (the last).
/// </summary>
internal sealed record MergeConflict(int Segment, long Offset, int Width, IReadOnlyList<string> Mods, string Winner);

/// <summary>Segment <see cref="Index"/> of a merged entry: <see cref="Length"/> bytes of data at <see cref="Offset"/> of the merged file, changed by <see cref="Mods"/> (load order).</summary>
internal sealed record MergedSegment(int Index, long Offset, int Length, IReadOnlyList<string> Mods);
