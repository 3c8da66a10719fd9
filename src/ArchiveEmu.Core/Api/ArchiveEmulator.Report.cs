namespace ArchiveEmu.Core;

public sealed partial class ArchiveEmulator
{
    /// <summary>
    /// What the mod folders and inputs added in code make of the game now, as <c>archiveemu build</c> reports it: the language
    /// and where it came from, how each mod folder was read (its layout, the folders applied, the files not applied and why),
    /// the merged tables, the warnings and the conflicts. Read from the same resolved game as <see cref="Routes"/> and <see cref="Open"/>.
    /// </summary>
    public ModSetReport Report()
    {
        lock (_lock)
        {
            ThrowIfDisposed();
            var game = Game();
            return ModSetReports.Of(game.Plan, game.Setup.Language);
        }
    }
}
