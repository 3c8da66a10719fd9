namespace ArchiveEmu.Core.Merges;

/// <summary>The entry merges ArchiveEmu knows: one registration line each (docs/TABLES.md, "Adding a game's merges").</summary>
internal static class EntryMerges
{
    public static IReadOnlyList<IEntryMerge> All { get; } =
    [
        // MERGE-REGISTRATIONS
        Tables.PersonaTableMerges.Instance,
    ];

    /// <summary>The merges of the game installed in <paramref name="gameFolder"/>, in registration order (the first to claim an entry merges it).</summary>
    public static IReadOnlyList<IGameMerges> For(string gameFolder) => All.Select(m => m.For(gameFolder)).OfType<IGameMerges>().ToArray();
}
