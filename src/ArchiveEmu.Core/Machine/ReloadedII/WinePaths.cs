using System.Runtime.InteropServices;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.Machine.ReloadedII;

/// <summary>
/// Windows paths as Reloaded-II writes them under Wine or Proton (<c>Z:\home\deck\…</c>, <c>E:\SteamLibrary\…</c>) mapped to this
/// machine's paths: a drive letter through the prefix's <c>dosdevices/&lt;letter&gt;:</c> symlink (Wine's own table: <c>z:</c> → <c>/</c>,
/// <c>c:</c> → <c>../drive_c</c>), then each name matched ignoring letter case where the exact spelling is absent, as Wine opens files.
/// </summary>
internal static class WinePaths
{
    /// <summary>The Linux path of <paramref name="windowsPath"/>, or null with <paramref name="why"/> saying what could not be mapped.</summary>
    /// <param name="prefix">The Wine prefix (the folder holding <c>dosdevices/</c> and <c>drive_c/</c>); null when unknown, then only <c>Z:</c> maps (to <c>/</c>).</param>
    public static string? ToLinux(string windowsPath, string? prefix, out string why)
    {
        why = "";
        var path = windowsPath.Trim().Replace('/', '\\');
        if (path.StartsWith(@"\\?\", StringComparison.Ordinal) || path.StartsWith(@"\??\", StringComparison.Ordinal))
            path = path[4..];
        if (path.Length >= 2 && path[1] == ':' && char.IsAsciiLetter(path[0]))
        {
            var drive = DriveRoot(char.ToLowerInvariant(path[0]), prefix);
            if (drive is null)
            {
                why = prefix is null
                    ? $"drive {char.ToUpperInvariant(path[0])}: of {windowsPath} cannot be mapped without a Wine prefix (only Z: is /)"
                    : $"drive {char.ToUpperInvariant(path[0])}: of {windowsPath} has no link {Path.Combine(prefix, "dosdevices", $"{char.ToLowerInvariant(path[0])}:")}";
                return null;
            }
            return MatchCase(drive, path[2..].Split('\\', StringSplitOptions.RemoveEmptyEntries));
        }
        if (path.StartsWith('\\'))
        {
            why = $"{windowsPath} names no drive";
            return null;
        }
        why = $"{windowsPath} is relative";
        return null;
    }

    /// <summary>The folder a drive letter stands for: the target of <c>dosdevices/x:</c> (relative to dosdevices/), else Z: as / when no prefix is known.</summary>
    private static string? DriveRoot(char letter, string? prefix)
    {
        if (prefix is null)
            return letter == 'z' ? "/" : null;
        var link = new FileInfo(Path.Combine(prefix, "dosdevices", $"{letter}:"));
        if (link.LinkTarget is { } target)
            return Path.GetFullPath(target, Path.Combine(prefix, "dosdevices"));
        if (Directory.Exists(link.FullName)) // a copied prefix may hold a real folder
            return link.FullName;
        return letter == 'z' && !Directory.Exists(Path.Combine(prefix, "dosdevices")) ? "/" : null;
    }

    /// <summary>
    /// <paramref name="root"/> joined with <paramref name="names"/>, each name spelled as the folder spells it when only letter case differs
    /// (the first match in ordinal order); names past the first missing one are kept as written.
    /// </summary>
    public static string MatchCase(string root, IEnumerable<string> names)
    {
        var path = root;
        bool exists = Directory.Exists(path);
        foreach (var name in names)
        {
            if (name == ".")
                continue;
            if (name == "..")
            {
                path = Path.GetDirectoryName(path.TrimEnd('/')) ?? path;
                continue;
            }
            var exact = Path.Combine(path, name);
            if (exists && !Path.Exists(exact))
            {
                var spelled = Directory.EnumerateFileSystemEntries(path).Select(Path.GetFileName)
                    .Where(n => n!.Equals(name, StringComparison.OrdinalIgnoreCase)).Order(StringComparer.Ordinal).FirstOrDefault();
                exact = spelled is null ? exact : Path.Combine(path, spelled);
            }
            path = exact;
            exists = exists && Directory.Exists(path);
        }
        return path;
    }

    /// <summary>The Wine prefix holding <paramref name="folder"/>: the nearest folder above it holding <c>drive_c/</c> and <c>dosdevices/</c>, or null.</summary>
    public static string? PrefixAbove(string folder)
    {
        for (var at = Path.GetFullPath(folder); at is not null; at = Path.GetDirectoryName(at))
            if (Directory.Exists(Path.Combine(at, "drive_c")) && Directory.Exists(Path.Combine(at, "dosdevices")))
                return at;
        return null;
    }
}
