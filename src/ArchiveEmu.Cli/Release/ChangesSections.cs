using System.Text;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// The sections of a CHANGES.md (docs/CHANGES.md's shape: "## VERSION …" headings, newest first) that an update brings:
/// those after the installed version up to and including the new one, newest first, as written.
/// </summary>
internal static class ChangesSections
{
    public static string Between(string changes, ReleaseVersion installed, ReleaseVersion updated)
    {
        var kept = new StringBuilder();
        var keeping = false;
        foreach (var line in changes.ReplaceLineEndings("\n").Split('\n'))
        {
            if (line.StartsWith("## ", StringComparison.Ordinal))
                keeping = ReleaseVersion.TryParse(line[3..].Split(' ', 2)[0]) is { } version
                    && version.CompareTo(installed) > 0 && version.CompareTo(updated) <= 0;
            else if (line.StartsWith("# ", StringComparison.Ordinal))
                keeping = false;
            if (keeping)
                kept.Append(line).Append('\n');
        }
        return kept.ToString().TrimEnd('\n');
    }
}
