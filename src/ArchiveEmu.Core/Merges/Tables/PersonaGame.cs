namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>The Persona games whose tables Persona Essentials merges.</summary>
internal enum PersonaGame
{
    P5R,
    P4G,
    P3P,
}

/// <summary>Tells which Persona game a game folder holds, by its executable (as Essentials tells by the process it runs in).</summary>
internal static class PersonaGames
{
    private static readonly (string Exe, PersonaGame Game)[] Executables =
    [
        ("P5R.exe", PersonaGame.P5R),
        ("P4G.exe", PersonaGame.P4G),
        ("P3P.exe", PersonaGame.P3P),
    ];

    /// <summary>The game whose executable sits in the context's game folder (name compared ignoring case, the first in this list), or null.</summary>
    public static PersonaGame? Detect(MergeContext context) =>
        Executables.Where(e => context.Holds(e.Exe)).Select(e => (PersonaGame?)e.Game).FirstOrDefault();
}
