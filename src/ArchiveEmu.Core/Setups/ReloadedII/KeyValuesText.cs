using System.Text;

namespace ArchiveEmu.Core.Setups.ReloadedII;

/// <summary>
/// Valve's KeyValues text, as Steam writes <c>libraryfolders.vdf</c> and <c>appmanifest_*.acf</c>: <c>"key" "value"</c> pairs and
/// <c>"key" { … }</c> blocks, <c>//</c> comments, keys compared ignoring letter case (as Steam reads them). A node is a value or a block.
/// </summary>
internal sealed class KeyValuesText
{
    private readonly List<(string Key, KeyValuesText Node)> _children = [];

    private KeyValuesText(string? value) => Value = value;

    /// <summary>The text of a <c>"key" "value"</c> pair; null for a block.</summary>
    public string? Value { get; }

    public IReadOnlyList<(string Key, KeyValuesText Node)> Children => _children;

    /// <summary>The first child named <paramref name="key"/> (letter case aside), or null.</summary>
    public KeyValuesText? this[string key] => _children.FirstOrDefault(c => c.Key.Equals(key, StringComparison.OrdinalIgnoreCase)).Node;

    /// <summary>The value of the child <paramref name="key"/>, or null when absent or a block.</summary>
    public string? Text(string key) => this[key]?.Value;

    /// <summary>The file's top-level pairs as one block; <see cref="InvalidDataException"/> naming the file and line when it is not KeyValues text.</summary>
    public static KeyValuesText Read(string file) => Parse(File.ReadAllText(file), file);

    public static KeyValuesText Parse(string text, string file)
    {
        var reader = new Tokens(text, file);
        var root = new KeyValuesText(null);
        reader.ReadBlock(root, topLevel: true);
        return root;
    }

    private sealed class Tokens(string text, string file)
    {
        private int _at;
        private int _line = 1;
        private int _tokenLine = 1; // the line of the last token read, where a wrong token is reported

        public void ReadBlock(KeyValuesText block, bool topLevel)
        {
            while (Next() is { } key)
            {
                if (key is { Quoted: false, Text: "}" })
                {
                    if (topLevel)
                        throw Error("a '}' closes no block");
                    return;
                }
                if (key is { Quoted: false, Text: "{" })
                    throw Error("a '{' where a key was expected");
                var value = Next() ?? throw Error($"the key \"{key.Text}\" has no value");
                SkipCondition();
                if (value is { Quoted: false, Text: "{" })
                {
                    var child = new KeyValuesText(null);
                    ReadBlock(child, topLevel: false);
                    block._children.Add((key.Text, child));
                }
                else if (value is { Quoted: false, Text: "}" })
                    throw Error($"the key \"{key.Text}\" has no value");
                else
                    block._children.Add((key.Text, new KeyValuesText(value.Text)));
            }
            if (!topLevel)
                throw Error("a block is not closed (a '}' is missing)", atEnd: true);
        }

        // Valve's platform conditions ([$WIN32]) after a value: read and ignored, Steam's files rarely hold them.
        private void SkipCondition()
        {
            SkipSpace();
            if (_at < text.Length && text[_at] == '[')
            {
                int end = text.IndexOf(']', _at);
                _at = end < 0 ? throw Error("a '[' condition is not closed") : end + 1;
            }
        }

        private (string Text, bool Quoted)? Next()
        {
            SkipSpace();
            _tokenLine = _line;
            if (_at >= text.Length)
                return null;
            char c = text[_at];
            if (c is '{' or '}')
            {
                _at++;
                return (c.ToString(), false);
            }
            if (c == '"')
                return (Quoted(), true);
            int start = _at;
            while (_at < text.Length && !char.IsWhiteSpace(text[_at]) && text[_at] is not ('{' or '}' or '"'))
                _at++;
            return (text[start.._at], false);
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
                    // Steam escapes '\' and '"' in paths (E:\\Games); \n and \t as in C.
                    c = text[++_at] switch { 'n' => '\n', 't' => '\t', var other => other };
                }
                value.Append(c);
            }
            throw Error("a quoted string is not closed");
        }

        private void SkipSpace()
        {
            while (_at < text.Length)
            {
                if (text[_at] == '\n')
                    _line++;
                if (char.IsWhiteSpace(text[_at]))
                    _at++;
                else if (text[_at] == '/' && _at + 1 < text.Length && text[_at + 1] == '/')
                    while (_at < text.Length && text[_at] != '\n')
                        _at++;
                else
                    return;
            }
        }

        private InvalidDataException Error(string what, bool atEnd = false) =>
            new($"{file}: not KeyValues text as Steam writes it, line {(atEnd ? _line : _tokenLine)}: {what}");
    }
}
