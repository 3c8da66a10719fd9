using System.Text;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Release;

/// <summary>
/// A release server in a temp folder, laid out as .ci/release writes one (latest, VERSION/archive, VERSION/SHA256SUMS),
/// reached through curl's file:// addresses. The archive is packed with the system's tar and summed with sha256sum, so
/// the reading side is checked against tools that share no code with it.
/// </summary>
internal sealed class FakeReleaseServer : IDisposable
{
    public const string Rid = "linux-x64";

    private readonly TempDirectory _root = new("releases");

    public FakeReleaseServer()
    {
        ExternalTool.Require("curl");
        ExternalTool.Require("tar");
        ExternalTool.Require("sha256sum");
    }

    public string Url => new Uri(_root.Path + "/").AbsoluteUri;

    public string Folder => _root.Path;

    /// <summary>The program a release carries: a script that says <paramref name="says"/> and exits <paramref name="exit"/>.</summary>
    public static byte[] Script(string says, int exit = 0) => Encoding.UTF8.GetBytes($"#!/bin/sh\necho '{says}'\nexit {exit}\n");

    /// <summary>Publishes <paramref name="version"/> holding <paramref name="program"/> and <paramref name="changes"/>, and names it latest.</summary>
    public string Publish(string version, byte[] program, string changes)
    {
        var folder = $"archiveemu-{version}-{Rid}";
        using var staging = new TempDirectory("release-staging");
        staging.Write($"{folder}/archiveemu", program);
        staging.Write($"{folder}/CHANGES.md", Encoding.UTF8.GetBytes(changes));
        staging.Write($"{folder}/LICENSE", "GPL"u8.ToArray());
        var archive = _root[$"{version}/{folder}.tar.gz"];
        Directory.CreateDirectory(Path.GetDirectoryName(archive)!);
        Expect(ExternalTool.RunIn(staging.Path, "tar", "-czf", archive, folder));
        Sum(version);
        File.WriteAllText(_root["latest"], version + "\n");
        return archive;
    }

    /// <summary>Writes VERSION/SHA256SUMS for the files there now, as sha256sum does.</summary>
    public void Sum(string version)
    {
        var folder = _root[version];
        var names = Directory.GetFiles(folder).Select(Path.GetFileName).Where(n => n != "SHA256SUMS").Order(StringComparer.Ordinal).ToArray();
        var sums = ExternalTool.RunIn(folder, "sha256sum", names!);
        Expect(sums);
        File.WriteAllText(Path.Combine(folder, "SHA256SUMS"), sums.StdOut);
    }

    public void Dispose() => _root.Dispose();

    private static void Expect(ToolResult result) => Assert.That(result.ExitCode, Is.EqualTo(0), result.ToString());
}
