using Microsoft.Extensions.Configuration;
using Serilog;
using Serilog.Events;

namespace ArchiveEmu.Host;

/// <summary>
/// The host's log levels from configuration, read here rather than by Serilog.Settings.Configuration (reflection over sink
/// assemblies, which the NativeAOT build cannot do): <c>Serilog:MinimumLevel</c> or <c>Serilog:MinimumLevel:Default</c> (the
/// level), and <c>Serilog:MinimumLevel:Override:SOURCE</c> per log source. Values were checked by <see cref="SettingValues"/>.
/// </summary>
internal static class LogLevelSettings
{
    private const string Section = "Serilog";

    /// <summary>
    /// Defaults when nothing sets them, the same as the shipped appsettings.json, so a lone installed binary (no
    /// appsettings.json beside it) logs as before: Information, and only warnings from Microsoft's hosting.
    /// </summary>
    private static readonly Dictionary<string, LogEventLevel> DefaultOverrides = new(StringComparer.Ordinal) { ["Microsoft"] = LogEventLevel.Warning };

    public static LoggerConfiguration ReadLevels(this LoggerConfiguration logger, IConfiguration configuration)
    {
        var minimum = configuration.GetSection($"{Section}:MinimumLevel");
        logger.MinimumLevel.Is(Parse(minimum["Default"] ?? minimum.Value) ?? LogEventLevel.Information);
        var overrides = new Dictionary<string, LogEventLevel>(DefaultOverrides, StringComparer.Ordinal);
        foreach (var source in minimum.GetSection("Override").GetChildren())
            if (Parse(source.Value) is { } level)
                overrides[source.Key] = level;
        foreach (var (source, level) in overrides)
            logger.MinimumLevel.Override(source, level);
        return logger;
    }

    /// <summary>
    /// The Serilog settings this host does not read (WriteTo, Enrich, ...: the log always goes to the console), one line
    /// each, so a setting copied from another program's appsettings.json is reported rather than silently dropped.
    /// </summary>
    public static IEnumerable<string> Unread(IConfiguration configuration) =>
        configuration.GetSection(Section).GetChildren()
            .Where(c => c.Key != "MinimumLevel")
            .Select(c => $"{c.Path} is not read: the host reads only {Section}:MinimumLevel (the log goes to the console)");

    private static LogEventLevel? Parse(string? value) =>
        Enum.TryParse<LogEventLevel>(value, ignoreCase: true, out var level) ? level : null;
}
