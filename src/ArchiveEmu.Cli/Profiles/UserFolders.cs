namespace ArchiveEmu.Cli.Profiles;

/// <summary>The per-user folders of the XDG base directory rules: the variable when it holds an absolute path, else the fallback under HOME.</summary>
internal static class UserFolders
{
    /// <summary><c>$XDG_CONFIG_HOME/archiveemu</c>, else <c>~/.config/archiveemu</c>.</summary>
    public static string Config => Under("XDG_CONFIG_HOME", ".config");

    /// <summary><c>$XDG_STATE_HOME/archiveemu</c>, else <c>~/.local/state/archiveemu</c>.</summary>
    public static string State => Under("XDG_STATE_HOME", Path.Combine(".local", "state"));

    private static string Under(string variable, string fallback)
    {
        // The spec: a relative path in the variable is invalid and is ignored.
        var root = Environment.GetEnvironmentVariable(variable) is { Length: > 0 } set && Path.IsPathRooted(set)
            ? set
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), fallback);
        return Path.Combine(root, "archiveemu");
    }
}
