using System.Globalization;
using Microsoft.Extensions.Configuration;
using Serilog.Events;

namespace ArchiveEmu.Host;

/// <summary>
/// Checks the value of every known setting (the log level, each <see cref="MountOptions"/> property) before the logger
/// or the options are built from them: a malformed one was an unhandled exception (exit 134) from Serilog or the binder.
/// </summary>
internal static class SettingValues
{
    /// <summary>The first malformed value as one line ("ArchiveEmu:Fuse takes auto, kernel or libfuse, not 'fast'"), or null.</summary>
    public static string? Problem(IConfiguration configuration)
    {
        foreach (var (key, value) in LevelSettings(configuration))
            if (!Enum.TryParse<LogEventLevel>(value, ignoreCase: true, out _)) // as Serilog's configuration reader parses it
                return Takes(key, MountHost.LogLevels, value);
        var section = configuration.GetSection(MountOptions.Section);
        foreach (var property in typeof(MountOptions).GetProperties())
        {
            if (section[property.Name] is not { } value)
                continue;
            string key = $"{MountOptions.Section}:{property.Name}";
            if (MountOptions.Words.TryGetValue(property.Name, out var words) && !words.Contains(value, StringComparer.Ordinal))
                return Takes(key, words, value);
            if (MountOptions.WordsAnyCase.TryGetValue(property.Name, out var anyCase) && !string.IsNullOrWhiteSpace(value) && !anyCase.Contains(value, StringComparer.OrdinalIgnoreCase))
                return Takes(key, anyCase, value);
            if ((property.PropertyType == typeof(bool) || property.PropertyType == typeof(bool?)) && !bool.TryParse(value, out _))
                return $"{key} takes true or false, not '{value}'";
            if ((property.PropertyType == typeof(int) || property.PropertyType == typeof(uint))
                && !long.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out _))
                return $"{key} takes a whole number, not '{value}'";
        }
        return null;
    }

    /// <summary>The CLI's shape for a wrong word (<c>CliOptions.Takes</c>), so a setting reads as its option does.</summary>
    public static string Takes(string name, IReadOnlyList<string> words, string text) =>
        $"{name} takes {string.Join(", ", words.Take(words.Count - 1))} or {words[^1]}, not '{text}'";

    private static IEnumerable<(string Key, string Value)> LevelSettings(IConfiguration configuration)
    {
        var minimum = configuration.GetSection("Serilog:MinimumLevel");
        if (minimum.Value is { } plain)
            yield return (minimum.Path, plain);
        if (minimum["Default"] is { } fallback)
            yield return ($"{minimum.Path}:Default", fallback);
        foreach (var source in minimum.GetSection("Override").GetChildren())
            if (source.Value is { } level)
                yield return (source.Path, level);
    }
}
