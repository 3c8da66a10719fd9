using System.Globalization;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// A version as releases and <c>archiveemu --version</c> spell it, ordered as Semantic Versioning 2.0 orders them: the
/// three numbers, then a version with a pre-release part (<c>0.2.0-dev</c>) before the same without one, pre-release
/// parts compared field by field; what follows a '+' (the commit) names the build and does not order it.
/// </summary>
internal sealed class ReleaseVersion : IComparable<ReleaseVersion>
{
    private readonly int[] _numbers;
    private readonly string[] _preRelease;

    private ReleaseVersion(string text, int[] numbers, string[] preRelease)
    {
        Text = text;
        _numbers = numbers;
        _preRelease = preRelease;
    }

    /// <summary>As written, build part included.</summary>
    public string Text { get; }

    /// <summary>Without the build part: what CHANGES.md headings and comparisons name.</summary>
    public string Core => Text.Split('+')[0];

    public static ReleaseVersion? TryParse(string text)
    {
        if (string.IsNullOrEmpty(text) || text.Length > 200 || text.Any(c => !(char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '+')))
            return null;
        var withoutBuild = text.Split('+', 2)[0];
        var dash = withoutBuild.IndexOf('-');
        var numbers = (dash < 0 ? withoutBuild : withoutBuild[..dash]).Split('.');
        var preRelease = dash < 0 ? [] : withoutBuild[(dash + 1)..].Split('.');
        if (numbers.Length != 3 || preRelease.Any(p => p.Length == 0))
            return null;
        var parsed = new int[3];
        for (var i = 0; i < 3; i++)
            if (!int.TryParse(numbers[i], NumberStyles.None, CultureInfo.InvariantCulture, out parsed[i]))
                return null;
        return new ReleaseVersion(text, parsed, preRelease);
    }

    public int CompareTo(ReleaseVersion? other)
    {
        if (other is null)
            return 1;
        for (var i = 0; i < 3; i++)
            if (_numbers[i] != other._numbers[i])
                return _numbers[i].CompareTo(other._numbers[i]);
        if (_preRelease.Length == 0 || other._preRelease.Length == 0)
            return other._preRelease.Length.CompareTo(_preRelease.Length); // a release comes after its pre-releases
        for (var i = 0; i < Math.Min(_preRelease.Length, other._preRelease.Length); i++)
        {
            var order = CompareField(_preRelease[i], other._preRelease[i]);
            if (order != 0)
                return order;
        }
        return _preRelease.Length.CompareTo(other._preRelease.Length);
    }

    // Numeric fields compare as numbers and before words; words compare by their ASCII bytes.
    private static int CompareField(string a, string b)
    {
        var aNumber = long.TryParse(a, NumberStyles.None, CultureInfo.InvariantCulture, out var x);
        var bNumber = long.TryParse(b, NumberStyles.None, CultureInfo.InvariantCulture, out var y);
        return (aNumber, bNumber) switch
        {
            (true, true) => x.CompareTo(y),
            (true, false) => -1,
            (false, true) => 1,
            _ => string.CompareOrdinal(a, b),
        };
    }

    public override string ToString() => Text;
}
