using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Merges;

/// <summary>The entry merges ArchiveEmu knows: one registration line each (docs/TABLES.md, "Adding a game's merges").</summary>
internal static class EntryMerges
{
    public static IReadOnlyList<IEntryMerge> All { get; } =
    [
        // MERGE-REGISTRATIONS
        Tables.PersonaTableMerges.Instance,
        Metaphor.MetaphorTableMerges.Instance,
        Bustup.BustupParamMerges.Instance,
    ];

    /// <summary>
    /// The merges of <paramref name="context"/>'s game that look into its archives of <paramref name="format"/>, in registration
    /// order (the first to claim an entry merges it); the game folder is looked at only when one may.
    /// </summary>
    public static IReadOnlyList<IGameMerges> For(MergeContext context, IArchiveFormat format) =>
        All.Where(m => m.MergesInside(format)).Select(m => m.For(context)).OfType<IGameMerges>().ToArray();
}
