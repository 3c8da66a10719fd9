using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// Refuses an output file (<c>-o</c>) that would overwrite what it is made from: a path inside the game folder or a mod
/// folder, or one of the files the command reads. Symlinks and '..' are resolved on both sides, for the name the
/// output replaces and for where a link there leads (a game's archive may be a link to another drive).
/// </summary>
internal static class OutputFile
{
    /// <summary>Throws an <see cref="IOException"/> (exit 1, bad input) saying why <paramref name="output"/> (as given) is refused.</summary>
    /// <param name="reads">The files the output is made from (links are resolved here).</param>
    public static void RequireOutside(string output, RoutePlan plan, IEnumerable<string> reads)
    {
        var target = ResolvedPaths.Real(output);
        foreach (var path in new[] { ResolvedPaths.Location(output), target }.Distinct())
        {
            if (ResolvedPaths.IsInside(plan.GameFolder, path))
                throw Refused(output, path, $"inside the game folder {plan.GameFolder} and would overwrite the game's files");
            if (plan.Mods.FirstOrDefault(mod => ResolvedPaths.IsInside(mod, path)) is { } mod)
                throw Refused(output, path, $"inside the mod folder {mod} and would overwrite the mod's files");
        }
        if (reads.Any(read => ResolvedPaths.Same(ResolvedPaths.Real(read), target)))
            throw Refused(output, target, "a file this command reads and would overwrite it");
    }

    private static IOException Refused(string output, string path, string why) =>
        new($"-o {output}{(path == output ? "" : $" (that is {path})")}: refused, it is {why}; write it elsewhere, or add --force");
}
