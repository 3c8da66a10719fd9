using System.Reflection;
using System.Runtime.InteropServices;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// Where releases are served and how (docs/INSTALL.md, "Releases"): <c>&lt;base&gt;/latest</c> holds one line, the newest
/// version; <c>&lt;base&gt;/&lt;version&gt;/</c> that version's files, named as <c>.ci/release</c> writes them. The download
/// installer (get-archiveemu.sh) reads the same layout.
/// </summary>
internal sealed class ReleaseServer(string baseUrl)
{
    /// <summary>The variable that names another release server (a mirror, a test's): it goes over the built-in one.</summary>
    public const string Variable = "ARCHIVEEMU_RELEASES";

    private const long MaxArchiveBytes = 512L << 20;

    public string Base { get; } = baseUrl.TrimEnd('/');

    /// <summary>The server <see cref="Variable"/> names, else the one this build was made with (Directory.Build.props).</summary>
    public static ReleaseServer Configured()
    {
        var named = Environment.GetEnvironmentVariable(Variable);
        if (string.IsNullOrWhiteSpace(named))
            named = typeof(ReleaseServer).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
                .FirstOrDefault(a => a.Key == "ArchiveEmuReleases")?.Value;
        return string.IsNullOrWhiteSpace(named)
            ? throw new IOException($"no release server is set in this build: set {Variable}=URL (docs/INSTALL.md, \"Updating\")")
            : new ReleaseServer(named.Trim());
    }

    /// <summary>The release archive's name for this machine, or null where no release is built (docs/INSTALL.md).</summary>
    public static string? MachineRid() =>
        !OperatingSystem.IsLinux() ? null : RuntimeInformation.OSArchitecture switch
        {
            Architecture.X64 => "linux-x64",
            Architecture.Arm64 => "linux-arm64",
            _ => null,
        };

    public static string ArchiveName(ReleaseVersion version, string rid) => $"archiveemu-{version.Text}-{rid}.tar.gz";

    /// <summary>The newest version, from <c>latest</c> (downloaded into <paramref name="work"/>).</summary>
    public ReleaseVersion Latest(string work)
    {
        var file = Path.Combine(work, "latest");
        Curl.Download($"{Base}/latest", file, maxBytes: 4096);
        var line = File.ReadLines(file).FirstOrDefault()?.Trim() ?? "";
        return ReleaseVersion.TryParse(line)
            ?? throw new InvalidDataException($"{Base}/latest does not name a version ('{(line.Length > 40 ? line[..40] + "…" : line)}')");
    }

    /// <summary>Downloads one file of a release into <paramref name="work"/> and says where it is.</summary>
    public string Fetch(ReleaseVersion version, string name, string work)
    {
        var file = Path.Combine(work, name);
        Curl.Download($"{Base}/{version.Text}/{name}", file, MaxArchiveBytes);
        return file;
    }
}
