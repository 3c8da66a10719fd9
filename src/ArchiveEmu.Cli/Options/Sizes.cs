using System.CommandLine;
using System.Globalization;

namespace ArchiveEmu.Cli.Options;

/// <summary>Byte sizes on the command line: a whole number with an optional K, M or G suffix (powers of 1024).</summary>
internal static class Sizes
{
    /// <summary><c>--name N</c>: a size from <paramref name="min"/> to <paramref name="max"/> bytes; null when the option is absent.</summary>
    public static Option<long?> Option(string name, string description, long min = 1, long max = 1L << 50) => new(name)
    {
        Description = description,
        HelpName = "N",
        CustomParser = result =>
        {
            if (result.Tokens.Count == 0)
                return null;
            var text = result.Tokens[0].Value;
            if (Parse(text) is { } bytes && bytes >= min && bytes <= max)
                return bytes;
            result.AddError(max == 1L << 50
                ? $"{name} takes a size such as 32M or 1048576, not '{text}'"
                : $"{name} takes {Units(min)} to {Units(max)}, not '{text}'");
            return null;
        },
    };

    /// <summary>The bytes <paramref name="text"/> stands for, or null when it is not a positive size up to 1 PiB.</summary>
    public static long? Parse(string text)
    {
        if (text.Length == 0)
            return null;
        long unit = char.ToUpperInvariant(text[^1]) switch { 'K' => 1L << 10, 'M' => 1L << 20, 'G' => 1L << 30, _ => 1 };
        var digits = unit == 1 ? text : text[..^1];
        if (!long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out long value) || value <= 0 || value > (1L << 50) / unit)
            return null;
        return value * unit;
    }

    private static string Units(long bytes) =>
        bytes % (1L << 30) == 0 ? $"{bytes >> 30}G" : bytes % (1L << 20) == 0 ? $"{bytes >> 20}M" : bytes % (1L << 10) == 0 ? $"{bytes >> 10}K" : $"{bytes}";
}
