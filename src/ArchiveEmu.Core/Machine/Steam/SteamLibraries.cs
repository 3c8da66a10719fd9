using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.Machine.Steam;

/// <summary>
/// Steam's libraries as its own files list them: the library holding a game (<c>&lt;library&gt;/steamapps/common/&lt;game&gt;</c>) and every
/// library in <c>steamapps/libraryfolders.vdf</c> under a Steam root (an SD card under <c>/run/media/…</c> included), each
/// <c>appmanifest_&lt;appid&gt;.acf</c> naming the folder it installs (<c>installdir</c>, under <c>steamapps/common/</c>).
/// </summary>
internal static class SteamLibraries
{
    /// <summary>For each app installed in <paramref name="gameFolder"/>: its id, its manifest and each <c>compatdata/&lt;appid&gt;</c> folder
    /// that exists, the game's own library first. Files that cannot be read go to <paramref name="problems"/>.</summary>
    public static IEnumerable<(string AppId, string Manifest, string CompatData)> CompatDataOf(string gameFolder, IReadOnlyList<string> steamRoots, List<string> problems)
    {
        var libraries = Libraries(gameFolder, steamRoots, problems);
        foreach (var library in libraries)
        {
            foreach (var manifest in SteamAppManifest.Installing(gameFolder, [Path.Combine(library, "steamapps")], problems))
            {
                if (manifest.AppState.ValueAt("appid") is not { Length: > 0 } appId)
                    continue;
                foreach (var other in libraries.Prepend(library).Distinct())
                {
                    var compat = Path.Combine(other, "steamapps", "compatdata", appId);
                    if (Directory.Exists(compat))
                        yield return (appId, manifest.Path, compat);
                }
            }
        }
    }

    /// <summary>The game's own library (when it sits in one), then each Steam root and the libraries its libraryfolders.vdf lists, each once.</summary>
    public static List<string> Libraries(string gameFolder, IReadOnlyList<string> steamRoots, List<string> problems)
    {
        var libraries = new List<string>();
        var common = Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(Path.GetFullPath(gameFolder)));
        if (common is not null && Path.GetFileName(common) == "common" && Path.GetDirectoryName(common) is { } steamapps
            && Path.GetFileName(steamapps).Equals("steamapps", StringComparison.OrdinalIgnoreCase))
            libraries.Add(Path.GetDirectoryName(steamapps)!);
        foreach (var root in steamRoots.Where(Directory.Exists))
        {
            libraries.Add(root);
            var list = Path.Combine(root, "steamapps", "libraryfolders.vdf");
            if (!File.Exists(list))
                continue;
            try
            {
                var folders = Read(list)["libraryfolders"];
                // Current format: "0" { "path" "…" }; the old one: "1" "…".
                foreach (var node in folders?.Children ?? [])
                    if ((node.Value ?? node.ValueAt("path")) is { Length: > 0 } path)
                        libraries.Add(path);
            }
            catch (Exception e) when (e is InvalidDataException or IOException)
            {
                problems.Add(e.Message);
            }
        }
        // A library reached twice (~/.steam/steam is a link to ~/.local/share/Steam) is kept once.
        return libraries.Where(Directory.Exists).DistinctBy(RealPaths.Of).ToList();
    }

    /// <summary>A Steam file's KeyValues (the one reader, <see cref="ValveKeyValues"/>); bad text names the file.</summary>
    private static ValveKeyValues Read(string file)
    {
        try
        {
            return ValveKeyValues.Parse(File.ReadAllText(file));
        }
        catch (InvalidDataException e)
        {
            throw new InvalidDataException($"{file}: {e.Message}", e);
        }
    }
}
