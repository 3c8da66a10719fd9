namespace ArchiveEmu.Cli;

/// <summary>A usage mistake (unknown flag, missing value): exit code 2 with the command's usage.</summary>
internal sealed class UsageException(string message) : Exception(message);

/// <summary>
/// Parsed arguments of one command: options (<c>--name value</c>, <c>--name=value</c>, repeatable),
/// flags (<c>--json</c>) and positionals. Unknown options are usage errors.
/// </summary>
internal sealed class CommandLine
{
    private readonly Dictionary<string, List<string>> _options = new(StringComparer.Ordinal);
    private readonly HashSet<string> _flags = new(StringComparer.Ordinal);
    private readonly List<string> _positionals = new();

    /// <param name="args">The arguments after the command name.</param>
    /// <param name="valueOptions">Options that take a value (without the leading dashes); "o" stands for -o.</param>
    /// <param name="flagOptions">Options that take no value.</param>
    /// <param name="optionalValueOptions">Options whose value may be omitted (a bare <c>--merge</c>): the value used then,
    /// and the words that may follow as its value (anything else is left as the next argument).</param>
    public CommandLine(IReadOnlyList<string> args, IEnumerable<string> valueOptions, IEnumerable<string> flagOptions,
        IReadOnlyDictionary<string, (string Default, string[] Allowed)>? optionalValueOptions = null)
    {
        var values = new HashSet<string>(valueOptions, StringComparer.Ordinal);
        var flags = new HashSet<string>(flagOptions, StringComparer.Ordinal);
        optionalValueOptions ??= new Dictionary<string, (string, string[])>();

        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            if (arg == "--")
            {
                _positionals.AddRange(args.Skip(i + 1));
                break;
            }
            if (!arg.StartsWith('-') || arg == "-")
            {
                _positionals.Add(arg);
                continue;
            }

            string name = arg.TrimStart('-');
            string? inline = null;
            int eq = name.IndexOf('=');
            if (eq >= 0)
            {
                inline = name[(eq + 1)..];
                name = name[..eq];
            }

            if (flags.Contains(name) && inline is null)
                _flags.Add(name);
            else if (values.Contains(name))
            {
                string value = inline ?? (i + 1 < args.Count ? args[++i] : throw new UsageException($"option {arg} needs a value"));
                Add(name, value);
            }
            else if (optionalValueOptions.TryGetValue(name, out var optional))
            {
                bool nextIsValue = inline is null && i + 1 < args.Count && optional.Allowed.Contains(args[i + 1]);
                Add(name, inline ?? (nextIsValue ? args[++i] : optional.Default));
            }
            else
                throw new UsageException($"unknown option {arg}");
        }
    }

    private void Add(string name, string value)
    {
        if (!_options.TryGetValue(name, out var list))
            _options[name] = list = new List<string>();
        list.Add(value);
    }

    public IReadOnlyList<string> Positionals => _positionals;

    public bool Flag(string name) => _flags.Contains(name);

    public IReadOnlyList<string> All(string name) => _options.TryGetValue(name, out var list) ? list : Array.Empty<string>();

    /// <summary>The option's value (the last one if repeated), or null.</summary>
    public string? Value(string name) => _options.TryGetValue(name, out var list) ? list[^1] : null;

    public string Required(string name) => Value(name) ?? throw new UsageException($"missing --{name}");

    public int Int(string name, int fallback, int min, int max)
    {
        var text = Value(name);
        if (text is null)
            return fallback;
        if (!int.TryParse(text, System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out int value) || value < min || value > max)
            throw new UsageException($"--{name} takes a whole number from {min} to {max}, not '{text}'");
        return value;
    }

    public string SinglePositional(string what)
    {
        if (_positionals.Count != 1)
            throw new UsageException(_positionals.Count == 0 ? $"missing {what}" : $"expected one {what}, got {_positionals.Count} arguments");
        return _positionals[0];
    }
}
