using System.Text;

namespace ArchiveEmu.Core.Machine.Steam;

/// <summary>
/// One key of a Valve KeyValues text document (Steam's .acf and .vdf files): a quoted or bare key with either a string value
/// or a block of child keys. Keys compare ignoring letter case, as Steam reads them.
/// </summary>
internal sealed class ValveKeyValues
{
    private ValveKeyValues(string key, string? value, IReadOnlyList<ValveKeyValues> children)
    {
        Key = key;
        Value = value;
        Children = children;
    }

    public string Key { get; }

    /// <summary>The string value; null for a block.</summary>
    public string? Value { get; }

    /// <summary>The keys inside a block, in file order; empty for a string value.</summary>
    public IReadOnlyList<ValveKeyValues> Children { get; }

    /// <summary>The first child named <paramref name="key"/> (any letter case), or null.</summary>
    public ValveKeyValues? this[string key] => Children.FirstOrDefault(c => c.Key.Equals(key, StringComparison.OrdinalIgnoreCase));

    /// <summary>The string value at a path of keys (<c>"UserConfig", "language"</c>), or null when a key is missing or a block.</summary>
    public string? ValueAt(params string[] path)
    {
        ValveKeyValues? node = this;
        foreach (var key in path)
            node = node?[key];
        return node?.Value;
    }

    /// <summary>
    /// Parses a document: its top-level keys under an unnamed root. Quoted strings take Valve's escapes (\\ \" \n \t);
    /// // starts a comment to the end of the line; a [$CONDITION] after a value is skipped. Bad text is an
    /// <see cref="InvalidDataException"/> naming the line.
    /// </summary>
    public static ValveKeyValues Parse(string text)
    {
        var reader = new Tokens(text);
        var top = ReadBlock(reader, topLevel: true);
        return new ValveKeyValues("", null, top);
    }

    private static List<ValveKeyValues> ReadBlock(Tokens tokens, bool topLevel)
    {
        var children = new List<ValveKeyValues>();
        while (true)
        {
            var key = tokens.Next();
            if (key is null)
            {
                if (!topLevel)
                    throw tokens.Error("a block is not closed ('}' missing)");
                return children;
            }
            if (key.Value.Kind == TokenKind.Close)
            {
                if (topLevel)
                    throw tokens.Error("'}' closes no block");
                return children;
            }
            if (key.Value.Kind != TokenKind.String)
                throw tokens.Error("a key was expected, not '{'");
            var value = tokens.Next() ?? throw tokens.Error($"the key \"{key.Value.Text}\" has no value");
            children.Add(value.Kind switch
            {
                TokenKind.Open => new ValveKeyValues(key.Value.Text, null, ReadBlock(tokens, topLevel: false)),
                TokenKind.String => new ValveKeyValues(key.Value.Text, value.Text, []),
                _ => throw tokens.Error($"the key \"{key.Value.Text}\" has no value"),
            });
        }
    }

    private enum TokenKind { String, Open, Close }

    private readonly record struct Token(TokenKind Kind, string Text);

    /// <summary>Splits the text into strings and braces, skipping white space, comments and conditions.</summary>
    private sealed class Tokens(string text)
    {
        private int _at;
        private int _line = 1;

        public InvalidDataException Error(string what) => new($"line {_line}: {what}");

        public Token? Next()
        {
            SkipSpaceAndComments();
            if (_at >= text.Length)
                return null;
            char c = text[_at];
            if (c == '{' || c == '}')
            {
                _at++;
                return new Token(c == '{' ? TokenKind.Open : TokenKind.Close, c.ToString());
            }
            if (c == '[')
            {
                SkipCondition();
                return Next();
            }
            return new Token(TokenKind.String, c == '"' ? Quoted() : Bare());
        }

        private void SkipSpaceAndComments()
        {
            while (_at < text.Length)
            {
                char c = text[_at];
                if (c == '\n')
                    _line++;
                if (char.IsWhiteSpace(c) || c == '\uFEFF')
                    _at++;
                else if (c == '/' && _at + 1 < text.Length && text[_at + 1] == '/')
                    while (_at < text.Length && text[_at] != '\n')
                        _at++;
                else
                    return;
            }
        }

        private void SkipCondition()
        {
            int end = text.IndexOf(']', _at);
            if (end < 0 || text.AsSpan(_at, end - _at).Contains('\n'))
                throw Error("a '[' condition is not closed on its line");
            _at = end + 1;
        }

        private string Quoted()
        {
            var value = new StringBuilder();
            for (_at++; _at < text.Length; _at++)
            {
                char c = text[_at];
                if (c == '"')
                {
                    _at++;
                    return value.ToString();
                }
                if (c == '\n')
                    _line++;
                if (c == '\\' && _at + 1 < text.Length)
                {
                    char escaped = text[++_at];
                    value.Append(escaped switch { 'n' => '\n', 't' => '\t', _ => escaped });
                }
                else
                    value.Append(c);
            }
            throw Error("a quoted string is not closed");
        }

        private string Bare()
        {
            int start = _at;
            while (_at < text.Length && !char.IsWhiteSpace(text[_at]) && text[_at] is not ('"' or '{' or '}'))
                _at++;
            return text[start.._at];
        }
    }
}
