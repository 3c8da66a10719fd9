using System.Security.Cryptography;

namespace ArchiveEmu.Cli.Release;

/// <summary>
/// A release's <c>SHA256SUMS</c>, as <c>sha256sum</c> writes it ("hash, two spaces or a space and '*', name"): a download
/// is used only when its SHA-256 is the one listed. It proves the file whole and unchanged since the release was made,
/// not who made it: the list comes from the same server.
/// </summary>
internal static class ReleaseChecksums
{
    /// <summary>The SHA-256 <paramref name="sums"/> lists for <paramref name="name"/>; a release without that file throws, before anything is downloaded.</summary>
    public static string Listed(string sums, string name) =>
        File.ReadLines(sums)
            .Select(line => line.TrimEnd('\r').Split(' ', 2))
            .Where(parts => parts.Length == 2 && parts[1].TrimStart(' ').TrimStart('*') == name)
            .Select(parts => parts[0].ToLowerInvariant())
            .FirstOrDefault()
            ?? throw new InvalidDataException($"SHA256SUMS does not list {name}");

    /// <summary>Throws, naming the file, unless <paramref name="file"/>'s SHA-256 is <paramref name="listed"/>.</summary>
    public static void Verify(string listed, string name, string file)
    {
        string actual;
        using (var stream = File.OpenRead(file))
            actual = Convert.ToHexStringLower(SHA256.HashData(stream));
        if (actual != listed)
            throw new InvalidDataException($"{name} is damaged or incomplete: its SHA-256 is {actual}, SHA256SUMS says {listed}");
    }
}
