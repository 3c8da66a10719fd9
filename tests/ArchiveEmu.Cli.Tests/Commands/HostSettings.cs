using System.CommandLine;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Host;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>What <c>mount</c> or <c>run</c> asks the host to serve for a command line, without mounting: its request laid over the host's default settings.</summary>
internal static class HostSettings
{
    /// <summary>What differs from the host's defaults, one "Name=value" each, in the order of <see cref="MountOptions"/>.</summary>
    public static string[] Of(bool run, string? mountPoint, params string[] args) => Of(Request(run, mountPoint, TextWriter.Null, args));

    /// <summary>The host's mount settings once the command line's request is laid over the defaults, and the game it serves.</summary>
    public static (MountOptions Options, GameRequest Served) Request(bool run, string? mountPoint, TextWriter error, params string[] args) =>
        Request(new MountOptions(), run, mountPoint, error, args);

    /// <summary>As <see cref="Request(bool, string?, TextWriter, string[])"/>, over the host's <paramref name="options"/> (as bound from its settings).</summary>
    public static (MountOptions Options, GameRequest Served) Request(MountOptions options, bool run, string? mountPoint, TextWriter error, params string[] args)
    {
        var mount = new MountArguments(run);
        var command = mount.AddTo(new Command(run ? "run" : "mount"));
        var parse = command.Parse(args);
        Assert.That(parse.Errors, Is.Empty, string.Join("; ", parse.Errors.Select(e => e.Message)));
        var request = mount.Request(parse, new CliConsole(TextWriter.Null, error, isInteractive: false), mountPoint);
        request.ApplyTo(options);
        return (options, request.Over(options));
    }

    public static string[] Of((MountOptions Options, GameRequest Served) mount)
    {
        var (o, served) = (mount.Options, mount.Served.Serving);
        var defaults = new MountOptions().Serving();
        var settings = new List<string> { $"Game={o.Game}", o.InPlace ? "InPlace=true" : $"MountPoint={o.MountPoint}" };
        settings.AddRange(o.Mods.Select((m, i) => $"Mods:{i}={m}"));
        if (served.Cache is not null)
            settings.Add($"Cache={served.Cache}");
        if (served.NoCache)
            settings.Add("NoCache=true");
        if (served.Merge != defaults.Merge)
            settings.Add($"Merge={served.Merge}");
        if (served.Compress != defaults.Compress)
            settings.Add($"Compression={served.Compress}");
        if (o.CacheMaxSize != new MountOptions().CacheMaxSize)
            settings.Add($"CacheMaxSize={o.CacheMaxSize}");
        if (served.Language is not null)
            settings.Add($"Language={served.Language} ({mount.Served.LanguageBy})");
        if (served.IgnoreCase == true)
            settings.Add("IgnoreCase=true");
        return settings.ToArray();
    }
}
