using System.Formats.Tar;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// What a file of the sample game holds, as lines an independent reader gives (AFS: "index sha256" per entry, CPK:
/// "path sha256" of the decoded bytes, tar: "name sha256" per member, any other file: its sha256), and what the mods make
/// of it, worked out here from the original file and the mod files by docs/DESIGN.md's rules ("Mod folders and routes"):
/// the expected side never runs archiveemu, so a mount test does not compare the product with itself.
/// </summary>
internal static class IndependentContent
{
    /// <summary>The lines for the file at <paramref name="path"/> (served by a mount, or copied out of one), read as <paramref name="relative"/>'s format.</summary>
    public static string[] Of(string relative, string path) =>
        TryOf(relative, path) ?? throw new AssertionException($"the independent reader rejects {path} as {relative}, or it cannot be read");

    /// <summary>As <see cref="Of"/>, null where the reader rejects the file or reading it fails (a mount between two versions).</summary>
    public static string[]? TryOf(string relative, string path)
    {
        try
        {
            return Path.GetExtension(relative).ToLowerInvariant() switch
            {
                ".afs" => AfsIndependentReader.TryReadMany([path])[0]?.Select(e => $"{e.Index} {e.Sha256}").ToArray(),
                ".cpk" => CpkIndependentReader.TryRead(path).Archive?.Entries.Select(e => $"{e.Path} {e.ContentSha256}").ToArray(),
                ".tar" => TarMembers(File.ReadAllBytes(path)).Select(m => $"{m.Name} {Sha(m.Bytes)}").ToArray(),
                _ => [Sha(File.ReadAllBytes(path))],
            };
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            return null;
        }
    }

    /// <summary>The lines <paramref name="relative"/> of <paramref name="game"/> holds once <paramref name="mods"/> (lowest priority first) apply.</summary>
    public static string[] Expected(string relative, string game, IReadOnlyList<string> mods)
    {
        // A later mod wins a whole file; a mod folder at an archive's path changes its entries instead.
        var whole = mods.Reverse().Select(m => Path.Combine(m, relative)).FirstOrDefault(File.Exists);
        if (whole is not null)
            return [Sha(File.ReadAllBytes(whole))];
        var original = Path.Combine(game, relative);
        var changes = mods.SelectMany(m => ModFiles(m, relative)).ToList();
        if (changes.Count == 0)
            return Of(relative, original);
        return Path.GetExtension(relative).ToLowerInvariant() switch
        {
            ".afs" => ExpectedAfs(original, changes),
            ".cpk" => ExpectedByName(CpkIndependentReader.Read(original).Entries.Select(e => (e.Path, e.ContentSha256)), changes, StringComparison.OrdinalIgnoreCase),
            ".tar" => ExpectedByName(TarMembers(File.ReadAllBytes(original)).Select(m => (m.Name, Sha(m.Bytes))), changes, StringComparison.Ordinal),
            _ => throw new AssertionException($"IndependentContent has no rule for the mod folder at {relative}: check that file with its format's independent reader"),
        };
    }

    // Index format: the leading digits name the entry, ".del" empties it, an index past the end grows the archive with empty slots.
    private static string[] ExpectedAfs(string original, List<(string Name, byte[] Bytes)> changes)
    {
        var entries = AfsIndependentReader.Read(original).Select(e => e.Sha256).ToList();
        foreach (var (name, bytes) in changes)
        {
            var file = Path.GetFileName(name);
            var index = int.Parse(new string(file.TakeWhile(char.IsAsciiDigit).ToArray()), System.Globalization.CultureInfo.InvariantCulture);
            while (entries.Count <= index)
                entries.Add(Sha([]));
            entries[index] = file.EndsWith(".del", StringComparison.OrdinalIgnoreCase) ? Sha([]) : Sha(bytes);
        }
        return entries.Select((sha, i) => $"{i} {sha}").ToArray();
    }

    // Name format: the path below the archive's folder is the entry; an unknown name is added at the end, NAME.del deletes.
    private static string[] ExpectedByName(IEnumerable<(string Name, string Sha)> original, List<(string Name, byte[] Bytes)> changes, StringComparison comparison)
    {
        var entries = original.ToList();
        foreach (var (name, bytes) in changes)
        {
            var deleted = name.EndsWith(".del", StringComparison.OrdinalIgnoreCase);
            var entry = deleted ? name[..^4] : name;
            var at = entries.FindIndex(e => string.Equals(e.Name, entry, comparison));
            if (deleted)
                entries.RemoveAt(at);
            else if (at >= 0)
                entries[at] = (entries[at].Name, Sha(bytes));
            else
                entries.Add((entry, Sha(bytes)));
        }
        return entries.Select(e => $"{e.Name} {e.Sha}").ToArray();
    }

    // One mod's files for the archive at relative: path below the archive's folder, '/' separators, in ordinal order.
    private static IEnumerable<(string Name, byte[] Bytes)> ModFiles(string mod, string relative)
    {
        var folder = Path.Combine(mod, relative);
        if (!Directory.Exists(folder))
            return [];
        return Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories)
            .Select(f => (Path.GetRelativePath(folder, f).Replace('\\', '/'), File.ReadAllBytes(f)))
            .OrderBy(f => f.Item1, StringComparer.Ordinal).ToList();
    }

    // System.Formats.Tar is the BCL's reader, not ArchiveEmu's: regular members in archive order.
    private static List<(string Name, byte[] Bytes)> TarMembers(byte[] tar)
    {
        var members = new List<(string, byte[])>();
        using var reader = new TarReader(new MemoryStream(tar));
        while (reader.GetNextEntry() is { } entry)
        {
            if (entry.EntryType is not (TarEntryType.RegularFile or TarEntryType.V7RegularFile))
                continue;
            using var data = new MemoryStream();
            entry.DataStream?.CopyTo(data);
            members.Add((entry.Name, data.ToArray()));
        }
        return members;
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
