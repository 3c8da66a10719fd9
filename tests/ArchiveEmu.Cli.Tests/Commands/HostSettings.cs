using System.CommandLine;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Host;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>What <c>mount</c> or <c>run</c> asks the host to serve for a command line, without mounting: its request laid over default settings.</summary>
internal static class HostSettings
{
    /// <summary>The settings that differ from the host's defaults, one "Name=value" each, in the order of <see cref="MountOptions"/>.</summary>
    public static string[] Of(bool run, string? mountPoint, params string[] args) => Of(Request(run, mountPoint, TextWriter.Null, args));

    /// <summary>The host's options once the command line's request is laid over the defaults.</summary>
    public static MountOptions Request(bool run, string? mountPoint, TextWriter error, params string[] args)
    {
        var mount = new MountArguments(run);
        var command = mount.AddTo(new Command(run ? "run" : "mount"));
        var parse = command.Parse(args);
        Assert.That(parse.Errors, Is.Empty, string.Join("; ", parse.Errors.Select(e => e.Message)));
        var options = new MountOptions();
        mount.Request(parse, new CliConsole(TextWriter.Null, error, isInteractive: false), mountPoint).ApplyTo(options);
        return options;
    }

    public static string[] Of(MountOptions o)
    {
        var defaults = new MountOptions();
        var settings = new List<string> { $"Game={o.Game}", o.InPlace ? "InPlace=true" : $"MountPoint={o.MountPoint}" };
        settings.AddRange(o.Mods.Select((m, i) => $"Mods:{i}={m}"));
        if (o.Cache is not null)
            settings.Add($"Cache={o.Cache}");
        if (o.NoCache)
            settings.Add("NoCache=true");
        if (o.Merge != defaults.Merge)
            settings.Add($"Merge={o.Merge}");
        if (o.Compression != defaults.Compression)
            settings.Add($"Compression={o.Compression}");
        if (o.CacheMaxSize != defaults.CacheMaxSize)
            settings.Add($"CacheMaxSize={o.CacheMaxSize}");
        if (o.Language is not null)
            settings.Add($"Language={o.Language} ({o.LanguageBy})");
        if (o.IgnoreCase)
            settings.Add("IgnoreCase=true");
        return settings.ToArray();
    }
}
