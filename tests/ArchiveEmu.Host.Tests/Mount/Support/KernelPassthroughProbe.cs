using System.IO.Compression;
using System.Text.RegularExpressions;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// Whether this kernel offers FUSE passthrough, asked of the kernel itself and sharing nothing with the host's INIT
/// negotiation: its release (6.9 or later) and its build configuration (CONFIG_FUSE_PASSTHROUGH=y, from /proc/config.gz
/// or /boot/config-RELEASE). A test that trusted the host's own "not offered" line would turn a broken negotiation into a skip.
/// </summary>
internal static partial class KernelPassthroughProbe
{
    /// <summary>The answer: <see cref="Offered"/> null when the kernel's configuration could not be read; the reason says what was found or missing.</summary>
    public readonly record struct Answer(bool? Offered, string Reason);

    private static readonly Version FirstWithPassthrough = new(6, 9);
    private const string Option = "CONFIG_FUSE_PASSTHROUGH";

    public static Answer Ask()
    {
        string release = File.ReadAllText("/proc/sys/kernel/osrelease").Trim();
        string[] sources = ["/proc/config.gz", $"/boot/config-{release}"];
        foreach (var source in sources)
        {
            string? text = ReadConfig(source);
            if (text is not null)
                return Decide(release, text, source);
        }
        return Decide(release, null, $"neither {sources[0]} nor {sources[1]} could be read");
    }

    /// <summary>The decision from a release string and a kernel configuration's text (null: not readable, <paramref name="source"/> says why).</summary>
    internal static Answer Decide(string release, string? config, string source)
    {
        var version = ParseRelease(release);
        if (version is null)
            return new(null, $"kernel release '{release}' is not MAJOR.MINOR…");
        if (version < FirstWithPassthrough)
            return new(false, $"Linux {release} is older than 6.9, the first with FUSE passthrough");
        if (config is null)
            return new(null, $"Linux {release}, but its configuration is unknown: {source}");
        return OptionValue(config, Option) == "y"
            ? new(true, $"Linux {release}, {Option}=y in {source}")
            : new(false, $"Linux {release} built without {Option} ({source})");
    }

    /// <summary>"6.18.44-fc-v669" → 6.18; null when the release does not start with two numbers.</summary>
    internal static Version? ParseRelease(string release)
    {
        var match = ReleasePattern().Match(release);
        return match.Success ? new Version(int.Parse(match.Groups[1].Value), int.Parse(match.Groups[2].Value)) : null;
    }

    /// <summary>The value of <paramref name="option"/> in a .config text ("y", "m", a string…), or null when it is unset or absent.</summary>
    internal static string? OptionValue(string config, string option)
    {
        foreach (var raw in config.Split('\n'))
        {
            var line = raw.Trim();
            if (line.StartsWith(option + "=", StringComparison.Ordinal))
                return line[(option.Length + 1)..];
        }
        return null; // "# CONFIG_X is not set", or an option this kernel does not know
    }

    private static string? ReadConfig(string path)
    {
        try
        {
            using var file = File.OpenRead(path);
            using Stream text = path.EndsWith(".gz", StringComparison.Ordinal) ? new GZipStream(file, CompressionMode.Decompress) : file;
            return new StreamReader(text).ReadToEnd();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            return null;
        }
    }

    [GeneratedRegex(@"^(\d+)\.(\d+)")]
    private static partial Regex ReleasePattern();
}
