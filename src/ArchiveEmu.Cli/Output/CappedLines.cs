using System.Text.RegularExpressions;

namespace ArchiveEmu.Cli.Output;

/// <summary>
/// At most <see cref="PerKind"/> lines of one kind for a person to read, then one line saying how many more there were: an
/// AppConfig.json enabling a million mods that are not installed printed two million lines. A kind is a line's shape, its
/// words holding a digit, a dot or a slash (paths, mod IDs, versions, counts) made one: "…: enables *, which is not installed
/// under *". What is left out still goes where everything is kept (<c>build --json</c>, <c>run</c>'s log).
/// </summary>
internal static partial class CappedLines
{
    public const int PerKind = 20;

    /// <param name="lines">The lines, in order.</param>
    /// <param name="allAt">Where every line is, for the count's line: "all in the log", "build --json lists them all".</param>
    /// <param name="leftOut">Given each line left out (run: to its log), or null.</param>
    public static IEnumerable<string> Of(IEnumerable<string> lines, string allAt, Action<string>? leftOut = null)
    {
        var kinds = new Dictionary<string, (int Seen, string First)>(StringComparer.Ordinal);
        var capped = new List<string>();
        foreach (var line in lines)
        {
            var kind = Kind(line);
            var (seen, first) = kinds.GetValueOrDefault(kind, (0, line));
            kinds[kind] = (seen + 1, first);
            if (seen < PerKind)
                yield return line;
            else
            {
                leftOut?.Invoke(line);
                if (seen == PerKind)
                    capped.Add(kind);
            }
        }
        foreach (var kind in capped)
        {
            var (seen, first) = kinds[kind];
            yield return $"… and {seen - PerKind} more like \"{Shortened(first)}\" ({allAt})";
        }
    }

    /// <summary>
    /// Writes <paramref name="warnings"/> and then <paramref name="notes"/> (what was read, such as Reloaded-II's mods) to
    /// <paramref name="error"/> as archiveemu's lines, each kind cut to <see cref="PerKind"/>. Under <c>run</c> (a
    /// <see cref="LoggedWriter"/>) the lines left out still reach the log; elsewhere <c>build --json</c> lists them all.
    /// </summary>
    public static void WriteTo(TextWriter error, IEnumerable<string> warnings, IEnumerable<string>? notes = null)
    {
        var logged = error as LoggedWriter;
        string allAt = logged is null ? "build --json lists them all" : "all in the log";
        foreach (var (lines, prefix) in new[] { (warnings, "archiveemu: warning: "), (notes ?? [], "archiveemu: ") })
        {
            foreach (var line in Of(lines, allAt, logged is null ? null : left => logged.LogOnly(prefix + left)))
                error.WriteLine(prefix + line);
        }
    }

    private static string Kind(string line) => Varying().Replace(line, "*");

    private static string Shortened(string line) => line.Length <= 100 ? line : line[..99] + "…";

    [GeneratedRegex(@"\S*[\d./\\]\S*")]
    private static partial Regex Varying();
}
