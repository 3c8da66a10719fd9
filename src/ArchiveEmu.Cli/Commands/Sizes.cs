using System.Globalization;

namespace ArchiveEmu.Cli.Commands;

/// <summary>Byte sizes on the command line: a whole number with an optional K, M or G suffix (powers of 1024).</summary>
internal static class Sizes
{
    public static long Parse(CommandLine cl, string option, long fallback)
    {
        var text = cl.Value(option);
        if (text is null)
            return fallback;
        long unit = char.ToUpperInvariant(text[^1]) switch { 'K' => 1L << 10, 'M' => 1L << 20, 'G' => 1L << 30, _ => 1 };
        var digits = unit == 1 ? text : text[..^1];
        if (!long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out long value) || value <= 0 || value > (1L << 50) / unit)
            throw new UsageException($"--{option} takes a size such as 32M or 1048576, not '{text}'");
        return value * unit;
    }
}
