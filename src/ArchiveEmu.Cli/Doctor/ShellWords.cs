using System.Text;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>One word of a command line: its text once quotes are taken away, and where it stands in the line as written.</summary>
internal readonly record struct ShellWord(string Text, int Start, int End);

/// <summary>
/// A Steam launch option split into words as sh splits them, since Steam hands the line to a shell (an environment
/// assignment before %command% works): blanks separate words; '…' is taken as it is; in "…" a backslash escapes only
/// $ ` " \ and a newline; outside quotes it escapes any character. Of the expansions, only the home folder's (a leading
/// unquoted ~, and $HOME or ${HOME} outside '…') is made, the one a path to archiveemu is likely written with.
/// </summary>
internal static class ShellWords
{
    /// <summary>The words of <paramref name="line"/>, or null with <paramref name="problem"/> saying why the shell would refuse it.</summary>
    public static List<ShellWord>? Split(string line, string home, out string? problem)
    {
        var words = new List<ShellWord>();
        problem = null;
        int at = 0;
        while (true)
        {
            while (at < line.Length && IsBlank(line[at]))
                at++;
            if (at >= line.Length)
                return words;
            int start = at;
            var text = new StringBuilder();
            if (line[at] == '~' && (at + 1 == line.Length || line[at + 1] == '/' || IsBlank(line[at + 1])))
            {
                text.Append(home);
                at++;
            }
            while (at < line.Length && !IsBlank(line[at]))
            {
                char c = line[at];
                if (c == '\'')
                {
                    int close = line.IndexOf('\'', at + 1);
                    if (close < 0)
                    {
                        problem = "a ' quote is not closed";
                        return null;
                    }
                    text.Append(line, at + 1, close - at - 1);
                    at = close + 1;
                }
                else if (c == '"')
                {
                    at = DoubleQuoted(line, at + 1, home, text);
                    if (at < 0)
                    {
                        problem = "a \" quote is not closed";
                        return null;
                    }
                }
                else if (c == '\\' && at + 1 < line.Length)
                {
                    text.Append(line[at + 1]);
                    at += 2;
                }
                else
                    at = HomeOrCharacter(line, at, home, text);
            }
            words.Add(new ShellWord(text.ToString(), start, at));
        }
    }

    /// <summary>Whether <paramref name="word"/> sets a variable for the command after it (<c>NAME=value</c>), as sh reads it.</summary>
    public static bool IsAssignment(string word)
    {
        int equals = word.IndexOf('=');
        return equals > 0 && (char.IsAsciiLetter(word[0]) || word[0] == '_') && word[..equals].All(c => char.IsAsciiLetterOrDigit(c) || c == '_');
    }

    /// <summary><paramref name="text"/> as one word in double quotes, what sh expands there escaped.</summary>
    public static string Quoted(string text)
    {
        var quoted = new StringBuilder("\"");
        foreach (char c in text)
            quoted.Append(c is '"' or '\\' or '$' or '`' ? $"\\{c}" : c.ToString());
        return quoted.Append('"').ToString();
    }

    /// <summary>Reads "…" from just after its opening quote into <paramref name="text"/>: the index after its closing quote, or -1 when none closes it.</summary>
    private static int DoubleQuoted(string line, int at, string home, StringBuilder text)
    {
        while (at < line.Length)
        {
            char c = line[at];
            if (c == '"')
                return at + 1;
            if (c == '\\' && at + 1 < line.Length && line[at + 1] is '$' or '`' or '"' or '\\' or '\n')
            {
                text.Append(line[at + 1]);
                at += 2;
            }
            else
                at = HomeOrCharacter(line, at, home, text);
        }
        return -1;
    }

    /// <summary>Appends $HOME's value for a $HOME at <paramref name="at"/>, else the one character there: the index after what was read.</summary>
    private static int HomeOrCharacter(string line, int at, string home, StringBuilder text)
    {
        if (Home(line, at) is int length and > 0)
        {
            text.Append(home);
            return at + length;
        }
        text.Append(line[at]);
        return at + 1;
    }

    /// <summary>The length of $HOME or ${HOME} at <paramref name="at"/> (not $HOMEDIR), else 0.</summary>
    private static int Home(string line, int at)
    {
        if (string.CompareOrdinal(line, at, "${HOME}", 0, 7) == 0)
            return 7;
        if (string.CompareOrdinal(line, at, "$HOME", 0, 5) == 0 && (at + 5 == line.Length || !(char.IsAsciiLetterOrDigit(line[at + 5]) || line[at + 5] == '_')))
            return 5;
        return 0;
    }

    private static bool IsBlank(char c) => c is ' ' or '\t' or '\n';
}
