using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.Machine.Steam;

/// <summary>One Steam user's launch options for a game.</summary>
/// <param name="UserId">The user's folder under <c>userdata/</c> (Steam's account id).</param>
/// <param name="ConfigFile">The <c>localconfig.vdf</c> they were read from.</param>
/// <param name="Options">The launch options as Steam stores them; empty when none are set.</param>
internal sealed record SteamUserLaunchOptions(string UserId, string ConfigFile, string Options);

/// <summary>
/// The launch options Steam's users set for a game: <c>&lt;Steam root&gt;/userdata/&lt;id&gt;/config/localconfig.vdf</c>, at
/// <c>UserLocalConfigStore/Software/Valve/Steam/apps/&lt;appid&gt;/LaunchOptions</c>. Steam writes those keys in either
/// letter case ("apps" and "Apps", "Software" and "software"): <see cref="ValveKeyValues"/> compares keys ignoring it, as Steam does.
/// </summary>
internal static class SteamLaunchOptions
{
    private static readonly string[] ToApps = ["UserLocalConfigStore", "Software", "Valve", "Steam", "apps"];

    /// <summary>
    /// Every user's entry for <paramref name="appId"/> under the Steam roots that exist (a root reached twice, ~/.steam/steam being a
    /// link to ~/.local/share/Steam, read once), users in name order; a user who set nothing for it has empty options. A file
    /// that cannot be read or parsed goes to <paramref name="problems"/> as one line naming it and what is wrong.
    /// </summary>
    public static List<SteamUserLaunchOptions> Read(IEnumerable<string> steamRoots, string appId, List<string> problems)
    {
        var found = new List<SteamUserLaunchOptions>();
        foreach (var root in steamRoots.Where(Directory.Exists).DistinctBy(RealPaths.Of))
            foreach (var user in UserFolders(Path.Combine(root, "userdata"), problems))
            {
                var file = Path.Combine(user, "config", "localconfig.vdf");
                if (File.Exists(file) && OptionsIn(file, appId, problems) is { } options)
                    found.Add(new SteamUserLaunchOptions(Path.GetFileName(user), file, options));
            }
        return found;
    }

    private static IEnumerable<string> UserFolders(string userdata, List<string> problems)
    {
        if (!Directory.Exists(userdata))
            return [];
        try
        {
            return Directory.GetDirectories(userdata).Order(StringComparer.Ordinal).ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            problems.Add($"{userdata}: Steam's user folders cannot be listed ({e.Message})");
            return [];
        }
    }

    /// <summary>The file's launch options for the app (empty when it has none), or null when the file is not usable, said in <paramref name="problems"/>.</summary>
    private static string? OptionsIn(string file, string appId, List<string> problems)
    {
        ValveKeyValues config;
        try
        {
            var status = FileStatus.Of(file); // a FIFO is refused before an open that would wait for a writer
            if (!status.IsRegularFile)
            {
                problems.Add($"{file}: {status.Kind}, not a regular file; not read");
                return null;
            }
            config = ValveKeyValues.Parse(File.ReadAllText(file));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            problems.Add($"{file}: cannot be read ({e.Message})");
            return null;
        }
        catch (InvalidDataException e)
        {
            problems.Add($"{file}: not Steam's KeyValues text ({e.Message})");
            return null;
        }
        if (config["UserLocalConfigStore"] is null)
        {
            problems.Add($"{file}: has no UserLocalConfigStore block, so it is not a Steam user's local config");
            return null;
        }
        var apps = config;
        foreach (var key in ToApps)
            apps = apps?[key];
        return apps?[appId]?["LaunchOptions"]?.Value ?? "";
    }
}
