using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// Refuses an output file (<c>-o</c>) that would overwrite what it is made from: a path inside the game folder or a mod
/// folder, or one of the files the command reads. Symlinks and '..' are resolved on both sides, for the name the
/// output replaces and for where a link there leads (a game's archive may be a link to another drive).
/// </summary>
internal static class OutputFile
{
    /// <summary><c>cat -o</c>: nothing inside the game or a mod folder, nor onto <paramref name="reads"/>.</summary>
    public static void RequireOutside(string output, RoutePlan plan, IEnumerable<string> reads) =>
        RequireOutside(output, [(plan.GameFolder, "the game"), .. plan.Mods.Select(mod => (mod, "the mod"))], reads);

    /// <summary>Throws an <see cref="IOException"/> (exit 1, bad input) saying why <paramref name="output"/> (as given) is refused.</summary>
    /// <param name="folders">Folders not to write into, each with whose files they hold ("the game" → "the game folder G … the game's files").</param>
    /// <param name="reads">The files the output is made from (links are resolved here).</param>
    public static void RequireOutside(string output, IReadOnlyList<(string Folder, string Whose)> folders, IEnumerable<string> reads)
    {
        var target = RealPaths.Of(output);
        foreach (var path in new[] { RealPaths.Location(output), target }.Distinct())
            foreach (var (folder, whose) in folders)
                if (RealPaths.IsInside(folder, path))
                    throw Refused(output, path, $"inside {whose} folder {folder} and would overwrite {whose}'s files");
        if (reads.Any(read => RealPaths.Same(RealPaths.Of(read), target)))
            throw Refused(output, target, "a file this command reads and would overwrite it");
    }

    private static IOException Refused(string output, string path, string why) =>
        new($"-o {output}{(path == output ? "" : $" (that is {path})")}: refused, it is {why}; write it elsewhere, or add --force");
}
