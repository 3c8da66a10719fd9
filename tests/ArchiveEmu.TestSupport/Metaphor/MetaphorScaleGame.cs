using System.Buffers.Binary;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.TestSupport.Metaphor;

/// <summary>
/// A Metaphor: ReFantazio-like game folder at an assumed full scale and the mods a player would stack on it, for timing builds
/// and mounts (issue 50, beside <c>p5r-scale</c>): <c>METAPHOR.exe</c> (a dummy) and one CPK at the root, <c>base.cpk</c>, its data
/// under <c>COMMON/</c> (and <c>COMMON/4K/</c>) with the language folders beside it, twelve of Metaphor Essentials' merged tables at
/// their real paths; Reloaded-II mods in Metaphor Essentials' <c>MFEssentials/CPK</c> and the CRI hook's <c>CRIFsV2Hook/CPK</c>, the
/// first <see cref="Scale.TableMods"/> editing tables (two pairs editing one table each, one field changed by both). The entry
/// count is assumed (nothing published gives base.cpk's; docs/BENCHMARKS.md). Seeded, written once and reused while its stamp matches.
/// </summary>
public sealed class MetaphorScaleGame
{
    public const int Version = 1;
    public const string Cpk = "base.cpk";
    private const string StampFile = "metaphor-scale.stamp";

    // Twelve of the 58 tables Metaphor Essentials merges (its MRFTblMerger), with the field width it merges them in and a size.
    private static readonly (string Path, int Width, int Size)[] Tables =
    [
        ("COMMON/battle/table/Skill.tbl", 4, 48_000), ("COMMON/battle/table/Enemy.tbl", 4, 96_000),
        ("COMMON/battle/table/ItemWeapon.tbl", 2, 24_000), ("COMMON/battle/table/ItemArmor.tbl", 2, 20_000),
        ("COMMON/battle/table/Class.tbl", 4, 8_000), ("COMMON/battle/table/Encount.tbl", 4, 64_000),
        ("COMMON/battle/table/ITEMCATEGORY.bin", 1, 2_000), ("COMMON/battle/sound/Rf_ATKSE_DATA.bin", 2, 6_000),
        ("COMMON/init/data/ShopTable.bin", 2, 12_000), ("COMMON/init/data/NpcID.bin", 4, 4_000),
        ("COMMON/init/data/weaponModel1.bin", 4, 3_000), ("COMMON/init/data/character_costume_variety.bin", 1, 1_500),
    ];

    /// <summary>How big: entries in base.cpk, mods, of which table mods, files per mod, and the seed.</summary>
    public sealed record Scale(int Entries = 100_000, int Mods = 30, int TableMods = 10, int FilesPerMod = 20, int Seed = 50)
    {
        public string Stamp => $"metaphor-scale v{Version} entries={Entries} mods={Mods} tables={TableMods} files={FilesPerMod} seed={Seed}";
    }

    /// <summary>A mod: its folder's name, what it does, and its files (relative, '/'), ModConfig.json aside.</summary>
    public sealed record Mod(string Name, string Layout, IReadOnlyList<string> Files);

    private MetaphorScaleGame(string root, Scale scale, IReadOnlyList<Mod> mods, int entries, bool written) =>
        (Root, Size, Mods, Entries, Written) = (root, scale, mods, entries, written);

    public string Root { get; }
    public Scale Size { get; }
    public string Game => Path.Combine(Root, "game");
    public string ModsFolder => Path.Combine(Root, "mods");

    /// <summary>The mods in load order (lowest priority first).</summary>
    public IReadOnlyList<Mod> Mods { get; }

    public IEnumerable<string> ModFolders => Mods.Select(m => Path.Combine(ModsFolder, m.Name));

    /// <summary>base.cpk's entry count.</summary>
    public int Entries { get; }

    public bool Written { get; }

    public int ModFileCount => Mods.Sum(m => m.Files.Count);

    /// <summary>The game and mods under <paramref name="root"/>, written unless a stamp there says they already are.</summary>
    public static MetaphorScaleGame Open(string root, Scale? scale = null)
    {
        scale ??= new Scale();
        var random = new Random(scale.Seed);
        var cpk = CpkEntries(random, scale.Entries);
        var plan = Plan(random, cpk, scale);
        string stamp = Path.Combine(root, StampFile);
        bool fresh = File.Exists(stamp) && File.ReadAllText(stamp) == scale.Stamp;
        var game = new MetaphorScaleGame(root, scale, plan.Select(p => p.Mod).ToList(), cpk.Count, written: !fresh);
        if (!fresh)
            game.Write(cpk, plan, stamp);
        return game;
    }

    private static List<(string Path, byte[] Content)> CpkEntries(Random random, int count)
    {
        var entries = Tables.Select(t => (t.Path, Bytes(random, t.Size))).ToList();
        string[] languages = ["EN", "JP", "FR", "DE", "ES", "IT", "KO", "SC", "TC"];
        for (int i = 0; entries.Count < count; i++)
        {
            int j = i / 4;
            string path = (i % 4) switch
            {
                0 => $"COMMON/model/character/c{j / 100:D4}/c{j / 100:D4}_{j % 100:D3}.gmd",
                1 => $"COMMON/4K/texture/t{j / 100:D4}/t{j:D6}.dds",
                2 => $"COMMON/event/e{j / 100:D4}/e{j:D6}.bf",
                _ => $"{languages[j % languages.Length]}/message/m{j:D6}.bmd",
            };
            entries.Add((path, Bytes(random, 16 + random.Next(240))));
        }
        return entries.OrderBy(e => e.Path, StringComparer.Ordinal).ToList();
    }

    private static List<(Mod Mod, List<(string Path, byte[] Content)> Files)> Plan(Random random, List<(string Path, byte[] Content)> cpk, Scale scale)
    {
        var plan = new List<(Mod, List<(string, byte[])>)>();
        var replaceable = cpk.Where(e => !Tables.Any(t => t.Path == e.Path)).Select(e => e.Path).ToList();
        for (int i = 0; i < scale.Mods; i++)
        {
            bool table = i < scale.TableMods;
            string folder = i % 2 == 0 ? $"MFEssentials/CPK/mod{i:D2}" : $"CRIFsV2Hook/CPK/mod{i:D2}";
            var files = new List<(string Path, byte[] Content)>();
            if (table)
            {
                // Mods 0 and 1 edit Skill.tbl, 2 and 3 Enemy.tbl (one field changed by both of each pair); the rest one table each.
                int which = i < 4 ? i / 2 : i - 2;
                var (path, width, size) = Tables[which % Tables.Length];
                var original = cpk.First(e => e.Path == path).Content.ToArray();
                for (int k = 0; k < 8; k++)
                    BinaryPrimitives.WriteInt32LittleEndian(original.AsSpan((random.Next(size / 4 - 1)) * 4), random.Next());
                if (i < 4)
                    original[width * 10] ^= (byte)(i + 1); // field 10: both mods of the pair
                files.Add(($"{folder}/{path}", original));
            }
            var seen = new HashSet<string>(StringComparer.Ordinal);
            while (files.Count < scale.FilesPerMod)
            {
                string path = replaceable[random.Next(files.Count % 2 == 0 ? replaceable.Count : Math.Min(replaceable.Count, 2_000))];
                if (seen.Add(path))
                    files.Add(($"{folder}/{(files.Count % 5 == 4 ? path.ToUpperInvariant() : path)}", Bytes(random, 32 + random.Next(992))));
            }
            string name = $"{i:D2}-{(table ? "table" : i % 2 == 0 ? "mfessentials" : "crifs")}";
            plan.Add((new Mod(name, table ? "table merge" : folder.Split('/')[0], files.Select(f => f.Path).ToList()), files));
        }
        return plan;
    }

    private void Write(List<(string Path, byte[] Content)> cpk, List<(Mod Mod, List<(string Path, byte[] Content)> Files)> plan, string stamp)
    {
        Directory.CreateDirectory(Root);
        File.Delete(stamp);
        foreach (var folder in new[] { Game, ModsFolder })
            if (Directory.Exists(folder))
                Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(Game);
        File.WriteAllBytes(Path.Combine(Game, "METAPHOR.exe"), [(byte)'M', (byte)'Z', .. new byte[62]]);
        File.WriteAllBytes(Path.Combine(Game, Cpk), CpkTestWriter.WriteNamed(cpk.Select(e =>
        {
            int slash = e.Path.LastIndexOf('/');
            return new CpkTestWriter.NamedEntry(e.Path[..slash], e.Path[(slash + 1)..], e.Content);
        }).ToList()));
        for (int i = 0; i < plan.Count; i++)
        {
            string folder = Path.Combine(ModsFolder, plan[i].Mod.Name);
            Directory.CreateDirectory(folder);
            File.WriteAllText(Path.Combine(folder, "ModConfig.json"), $$"""
                {"ModId": "mrfscale.mod{{i:D2}}", "ModName": "Metaphor scale mod {{i}} ({{plan[i].Mod.Layout}})", "ModAuthor": "ArchiveEmu benchmark",
                 "ModVersion": "1.0.0", "ModDll": "", "ModDependencies": ["mrfpc.modloader"], "SupportedAppId": ["metaphor.exe"], "IsLibrary": false}
                """);
            foreach (var (path, content) in plan[i].Files)
            {
                string full = Path.Combine(folder, path);
                Directory.CreateDirectory(Path.GetDirectoryName(full)!);
                File.WriteAllBytes(full, content);
            }
        }
        File.WriteAllText(stamp, Size.Stamp);
    }

    private static byte[] Bytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }
}
