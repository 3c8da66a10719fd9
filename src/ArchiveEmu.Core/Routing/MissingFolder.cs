namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The one line for a game or mod folder given that is not a folder, with what to do when it is a file a player gives by
/// mistake: a mod as downloaded (<c>BigFont.zip</c>: extract it) or the game's program (<c>…/P5R.exe</c>: its folder). It
/// said "mod folder not found" for both, which is true and no help. Every front door (the library, the commands, a profile)
/// says it in these words.
/// </summary>
internal static class MissingFolder
{
    private static readonly string[] Archives = [".zip", ".7z", ".rar", ".tar", ".gz", ".xz", ".bz2", ".zst"];

    /// <summary>The line for <paramref name="folder"/>, which is not a folder; <paramref name="what"/> is "game" or "mod".</summary>
    public static string Describe(string folder, string what)
    {
        var full = Path.GetFullPath(folder);
        if (!File.Exists(full))
            return $"{full}: {what} folder not found";
        var extension = Path.GetExtension(full).ToLowerInvariant();
        if (Archives.Contains(extension))
            return $"{full}: a {extension[1..]} archive, not a {what} folder: extract it and give the folder it holds";
        return what == "game"
            ? $"{full}: a file, not the game folder: give the folder holding it ({Path.GetDirectoryName(full)})"
            : $"{full}: a file, not a {what} folder: give the folder holding the mod's files";
    }

    /// <summary><paramref name="folder"/> as a full path when it is a folder; else a <see cref="DirectoryNotFoundException"/> with <see cref="Describe"/>'s line.</summary>
    public static string Require(string folder, string what)
    {
        var full = Path.GetFullPath(folder);
        return Directory.Exists(full) ? full : throw new DirectoryNotFoundException(Describe(full, what));
    }
}
