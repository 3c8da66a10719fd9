namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// A Persona 5 Royal-like game folder at full scale and the mods a player would stack on it, for timing builds and mounts
/// (issue 31's benchmark; the mount-speed work reuses it): <c>P5R.exe</c> (a dummy), <c>CPK/BASE.CPK</c> and <c>CPK/EN.CPK</c>
/// (<see cref="P5rScaleCpks"/>), and Reloaded-II mods in Persona Essentials' layouts (<see cref="P5rScaleMods"/>). Seeded, so the
/// same scale gives the same bytes; written once under a folder and reused while its stamp matches.
/// </summary>
public sealed class P5rScaleGame
{
    /// <summary>Bumped whenever the generator's output changes, so a cached folder is written again.</summary>
    public const int Version = 2;

    private const string StampFile = "p5r-scale.stamp";

    /// <summary>
    /// How big: entries in each CPK, mods, files per mod, and the seed; <paramref name="CriFsOnly"/> puts every mod file in a
    /// <c>CRIFsV2Hook/CPK</c> folder instead of mixing the layouts (the set issue 31's "today" figures were taken with).
    /// </summary>
    public sealed record Scale(int EntriesPerCpk = 40_000, int Mods = 50, int FilesPerMod = 20, int Seed = 31, bool CriFsOnly = false)
    {
        public string Stamp => $"p5r-scale v{Version} entries={EntriesPerCpk} mods={Mods} files={FilesPerMod} seed={Seed}" + (CriFsOnly ? " crifs-only" : "");
    }

    /// <summary>A mod: its folder's name under <see cref="ModsFolder"/>, its main layout, and its files (relative, '/'), ModConfig.json aside.</summary>
    public sealed record Mod(string Name, string Layout, IReadOnlyList<string> Files);

    private P5rScaleGame(string root, Scale scale, IReadOnlyList<Mod> mods, IReadOnlyDictionary<string, IReadOnlyList<string>> cpkPaths, bool written)
    {
        Root = root;
        Size = scale;
        Mods = mods;
        CpkPaths = cpkPaths;
        Written = written;
    }

    public string Root { get; }

    public Scale Size { get; }

    public string Game => Path.Combine(Root, "game");

    public string ModsFolder => Path.Combine(Root, "mods");

    /// <summary>The mods in load order (lowest priority first, as <c>--mod</c> takes them).</summary>
    public IReadOnlyList<Mod> Mods { get; }

    /// <summary>Each mod's full folder, in load order.</summary>
    public IEnumerable<string> ModFolders => Mods.Select(m => Path.Combine(ModsFolder, m.Name));

    /// <summary>Every entry path of each CPK, keyed by its path in the game (<c>CPK/BASE.CPK</c>, <c>CPK/EN.CPK</c>), sorted.</summary>
    public IReadOnlyDictionary<string, IReadOnlyList<string>> CpkPaths { get; }

    /// <summary>Whether this call wrote the folder (false: the stamp matched and the files were reused).</summary>
    public bool Written { get; }

    /// <summary>Every mod file, ModConfig.json aside.</summary>
    public int ModFileCount => Mods.Sum(m => m.Files.Count);

    /// <summary>The game and mods under <paramref name="root"/>, written unless a stamp there says they already are.</summary>
    public static P5rScaleGame Open(string root, Scale? scale = null)
    {
        scale ??= new Scale();
        var cpks = new P5rScaleCpks(scale.EntriesPerCpk, scale.Seed);
        var plan = P5rScaleMods.Plan(cpks, scale);
        var cpkPaths = new Dictionary<string, IReadOnlyList<string>>
        {
            ["CPK/BASE.CPK"] = cpks.Base.Select(e => e.Path).ToList(),
            ["CPK/EN.CPK"] = cpks.En.Select(e => e.Path).ToList(),
        };
        string stamp = Path.Combine(root, StampFile);
        bool fresh = File.Exists(stamp) && File.ReadAllText(stamp) == scale.Stamp;
        var game = new P5rScaleGame(root, scale, plan.Select(p => p.Mod).ToList(), cpkPaths, written: !fresh);
        if (!fresh)
            game.Write(cpks, plan, stamp);
        return game;
    }

    // Everything first, the stamp last: an interrupted write is written again next time.
    private void Write(P5rScaleCpks cpks, List<(Mod Mod, List<P5rScaleMods.File> Files)> plan, string stamp)
    {
        Directory.CreateDirectory(Root);
        File.Delete(stamp);
        foreach (var folder in new[] { Game, ModsFolder })
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(Path.Combine(Game, "CPK"));
        File.WriteAllBytes(Path.Combine(Game, "P5R.exe"), [(byte)'M', (byte)'Z', .. new byte[62]]);
        File.WriteAllBytes(Path.Combine(Game, "CPK", "BASE.CPK"), P5rScaleCpks.Write(cpks.Base));
        File.WriteAllBytes(Path.Combine(Game, "CPK", "EN.CPK"), P5rScaleCpks.Write(cpks.En));
        for (int i = 0; i < plan.Count; i++)
        {
            string folder = Path.Combine(ModsFolder, plan[i].Mod.Name);
            Directory.CreateDirectory(folder);
            File.WriteAllText(Path.Combine(folder, "ModConfig.json"), P5rScaleMods.ModConfig(i, plan[i].Mod));
            foreach (var file in plan[i].Files)
            {
                string path = Path.Combine(folder, file.Path);
                Directory.CreateDirectory(Path.GetDirectoryName(path)!);
                File.WriteAllBytes(path, file.Content);
            }
        }
        File.WriteAllText(stamp, Size.Stamp);
    }
}
