using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>
/// Whether a game started by Steam inside its container (pressure-vessel, the Steam Linux Runtime: every Proton game) sees the
/// game folder, and so the mount over it. The paths it shares, from steam-runtime-tools' docs/shared-paths.md: the user's home
/// folder, /tmp and /var/tmp, the game's install folder (STEAM_COMPAT_INSTALL_PATH) and the Steam libraries, and what
/// PRESSURE_VESSEL_FILESYSTEMS_RO/RW and STEAM_COMPAT_MOUNTS add; /media, /mnt, /run/media, /opt, /srv and other top-level
/// folders are usually not shared, unless one of those holds them. Never blocking: a native game without the runtime sees everything.
/// </summary>
internal static class SteamContainerCheck
{
    private const string Name = "Steam container";

    public static DoctorCheck Run(string game, DoctorMachine machine)
    {
        var full = Path.GetFullPath(game).TrimEnd('/');
        if (SharedBy(full, machine) is { } why)
            return DoctorCheck.Passed(Name, $"{full}: inside what Steam's container shares ({why})", blocking: false);
        return DoctorCheck.Warning(Name, $"{full}: outside what Steam's container (pressure-vessel) shares, so a Proton game may not see it",
            $"install the game through Steam (a Steam library folder is shared) or move it under {machine.Home}; or add "
            + $"PRESSURE_VESSEL_FILESYSTEMS_RW={full} before %command% in the launch options");
    }

    /// <summary>Why the container shares <paramref name="full"/>, or null when it does not.</summary>
    internal static string? SharedBy(string full, DoctorMachine machine)
    {
        if (RealPaths.IsUnder(machine.Home, full))
            return $"the home folder {machine.Home}";
        foreach (var always in machine.SharedTempFolders)
            if (RealPaths.IsUnder(always, full))
                return always;
        foreach (var variable in new[] { "STEAM_COMPAT_INSTALL_PATH", "STEAM_COMPAT_LIBRARY_PATHS", "STEAM_COMPAT_MOUNTS", "PRESSURE_VESSEL_FILESYSTEMS_RW", "PRESSURE_VESSEL_FILESYSTEMS_RO" })
            foreach (var path in (machine.Environment(variable) ?? "").Split(':').Where(Path.IsPathRooted))
                if (RealPaths.IsUnder(path, full))
                    return $"{variable} holds {path}";
        if (SteamAppManifest.OfGame(full, []) is { } manifest)
            return $"the game's Steam install folder, per {manifest.Path}";
        return null;
    }
}
