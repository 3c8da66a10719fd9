namespace ArchiveEmu.Core.Routing;

/// <summary>How far apart two names are, to name the closest game path or layout folder a mod probably meant.</summary>
internal static class EditDistance
{
    /// <summary>Levenshtein distance, letter case aside: insertions, deletions and substitutions of one UTF-16 unit each cost 1.</summary>
    public static int IgnoringCase(string a, string b) => Between(a.ToUpperInvariant(), b.ToUpperInvariant());

    private static int Between(string a, string b)
    {
        var previous = Enumerable.Range(0, b.Length + 1).ToArray();
        var current = new int[b.Length + 1];
        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.Length; j++)
                current[j] = Math.Min(Math.Min(current[j - 1], previous[j]) + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            (previous, current) = (current, previous);
        }
        return previous[b.Length];
    }
}
