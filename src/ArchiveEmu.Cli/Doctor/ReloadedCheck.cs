using ArchiveEmu.Core.Machine.ReloadedII;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// Whether a Reloaded-II setup is on this machine for the game, found where <c>--reloaded</c> finds it (<see cref="ReloadedSearch"/>:
/// the Proton prefix of a Steam launch or the one Steam keeps for the game, ~/.wine, Reloaded-II's Linux installer folder).
/// Only code mods need it: without them a missing Reloaded-II is information, with them a warning.
/// </summary>
internal static class ReloadedCheck
{
    private const string Name = "Reloaded-II";

    public static DoctorCheck Run(string game, DoctorMachine machine, bool codeMods)
    {
        try
        {
            var home = machine.Home;
            var roots = new ReloadedSearchRoots(home, machine.Environment("STEAM_COMPAT_DATA_PATH") is { Length: > 0 } c ? c : null,
                ReloadedSearchRoots.SteamRootsUnder(home));
            var found = ReloadedSearch.Find(game, roots);
            return DoctorCheck.Fact(Name, $"found: {found.Folder} ({found.HowFound})");
        }
        catch (IOException e)
        {
            return codeMods
                ? DoctorCheck.Warning(Name, $"{e.Message}; code mods need it", "install Reloaded-II into the game's Proton prefix, or drop the code mods")
                : DoctorCheck.Fact(Name, $"{e.Message}; only code mods need it");
        }
    }
}
