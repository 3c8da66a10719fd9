using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// The two CPKs of <see cref="P5rScaleGame"/>, laid out like Persona 5 Royal's (paths from Persona Essentials' documentation
/// and table list): <c>BASE.CPK</c> with the battle tables, field packs (PAKs), SPD sprites and <c>SOUND/BGM_42.AWB</c> with its
/// ACB; <c>EN.CPK</c> with NAME.TBL, fonts, messages and scripts; some paths (NAME.TBL, the first field packs, a share of the
/// filler) in both, each with its own bytes. Everything no mod reads as a format is a tiny seeded filler file.
/// </summary>
internal sealed class P5rScaleCpks
{
    public const string UnitTable = "BATTLE/TABLE/UNIT.TBL", NameTable = "BATTLE/TABLE/NAME.TBL", Awb = "SOUND/BGM_42.AWB", Acb = "SOUND/BGM_42.ACB";
    public const int AwbEntries = 64, UnitEnemies = 784;

    // Persona Essentials' P5R tables and their segment counts (P5RTblSegmentFinder.GetSegmentCount).
    private static readonly (string Name, int Segments)[] Tables =
        [("SKILL", 4), ("ELSAI", 2), ("ITEM", 10), ("EXIST", 1), ("PLAYER", 6), ("ENCOUNT", 3), ("PERSONA", 4), ("AICALC", 7), ("VISUAL", 6)];

    // Illustrative UNIT.TBL segment sizes: enemy stats are 68-byte records (Essentials' EnemyUnitStatsResolver); the rest are u16 arrays.
    private static readonly int[] UnitSegmentSizes = [UnitEnemies * 68, UnitEnemies * 40, 464 * 40, UnitEnemies * 24, UnitEnemies * 4, UnitEnemies * 2];

    private static readonly PakTestLayout PackLayout = new("V3BE", 24, true, true);

    public P5rScaleCpks(int entriesPerCpk, int seed)
    {
        if (entriesPerCpk < 200)
            throw new ArgumentOutOfRangeException(nameof(entriesPerCpk), "at least 200 entries, so every kind of file fits");
        ArcCount = entriesPerCpk / 8;
        var random = new Random(seed);
        NameLists = Enumerable.Range(0, 19).Select(list => (IReadOnlyList<string>)Enumerable.Range(0, 20 + random.Next(180))
            .Select(i => $"NAME_{list:D2}_{i:D3}").ToList()).ToList();
        UnitOriginal = P5rTableWriter.Write(UnitSegmentSizes.Select(size => Bytes(random, size)).ToList());
        Base = Build(random, isBase: true, entriesPerCpk);
        En = Build(random, isBase: false, entriesPerCpk);
    }

    /// <summary>How many field packs <c>BASE.CPK</c> holds (the first eighth of them also in <c>EN.CPK</c>).</summary>
    public int ArcCount { get; }

    public IReadOnlyList<IReadOnlyList<string>> NameLists { get; }

    public byte[] UnitOriginal { get; }

    /// <summary>Every entry, sorted by path as CRI's packer sorts them.</summary>
    public IReadOnlyList<(string Path, byte[] Content)> Base { get; }

    public IReadOnlyList<(string Path, byte[] Content)> En { get; }

    /// <summary>The field pack <paramref name="index"/>: <c>FIELD/PACK/FD007_003.ARC</c> for 7 * 16 + 3.</summary>
    public static string ArcPath(int index) => $"FIELD/PACK/FD{index / 16:D3}_{index % 16:D3}.ARC";

    /// <summary>The files inside field pack <paramref name="index"/> (<c>f007.bf</c> in <c>FD007_003.ARC</c>, as Essentials' example).</summary>
    public static string[] ArcInner(int index) =>
        [$"f{index / 16:D3}.bf", $"f{index / 16:D3}_{index % 16:D3}.bmd", $"fd{index / 16:D3}_{index % 16:D3}.pac"];

    /// <summary>Filler path <paramref name="i"/> of one CPK (four families per CPK, unique by <paramref name="i"/>).</summary>
    public static string FillerPath(bool isBase, int i)
    {
        int j = i / 4;
        return (isBase, i % 4) switch
        {
            (true, 0) => $"MODEL/CHARACTER/{j / 100:D4}/C{j / 100:D4}_{j % 100:D3}_00.GMD",
            (true, 1) => $"EVENT/E{j / 100:D3}/E{j / 100:D3}_{j % 100:D3}.BF",
            (true, 2) => $"SOUND/SE/SE_{j:D5}.ACX",
            (true, _) => $"FIELD/TEX/T{j:D5}.DDS",
            (false, 0) => $"EVENT/MSG/E{j / 100:D3}_{j % 100:D3}.BMD",
            (false, 1) => $"CAMP/TEX/C{j:D5}.DDS",
            (false, 2) => $"SCRIPT/FIELD/F{j:D5}.BF",
            _ => $"MOVIE/SUB/M{j:D5}.USM.TXT",
        };
    }

    private IReadOnlyList<(string, byte[])> Build(Random random, bool isBase, int count)
    {
        var entries = new List<(string Path, byte[] Content)>
        {
            (NameTable, P5rTableWriter.Write(P5rTableWriter.NameSegments(NameLists))),
        };
        int arcs = isBase ? ArcCount : ArcCount / 8;
        for (int i = 0; i < arcs; i++)
            entries.Add((ArcPath(i), PakTestWriter.Write(PackLayout, ArcInner(i).Select(name => (name, Bytes(random, 32 + random.Next(224)))).ToList())));
        if (isBase)
        {
            entries.Add((UnitTable, UnitOriginal));
            foreach (var (name, segments) in Tables)
                entries.Add(($"BATTLE/TABLE/{name}.TBL", P5rTableWriter.Write(Enumerable.Range(0, segments).Select(_ => Bytes(random, 64 + random.Next(4032))).ToList())));
            var awb = AwbTestWriter.Write(Enumerable.Range(0, AwbEntries).Select(_ => (byte[]?)Bytes(random, 64 + random.Next(448))).ToList());
            entries.Add((Awb, awb));
            entries.Add((Acb, AcbTestWriter.Write(new AcbTestWriter.Options(Name: "BGM_42", StreamAwb: awb, Cues: AwbEntries))));
            for (int i = 0; i < Math.Max(1, count / 400); i++)
                entries.Add(($"FIELD/PANEL/SPD/PANEL_{i:D3}.SPD", SpdTestWriter.Write(
                    [new SpdTestWriter.Texture(1, DdsTestWriter.Write(TextureFormat.Dxt1, 16, 16, seed: i), "panel")],
                    [new SpdTestWriter.Sprite(1, 1, 0, 0, 16, 16)])));
        }
        else
        {
            for (int i = 0; i < 3; i++)
                entries.Add(($"FONT/FONT{i}.FNT", Bytes(random, 512 + random.Next(512))));
            for (int i = 0; i < count / 20; i++) // the same paths as BASE.CPK's first filler files, with this CPK's own bytes
                entries.Add((FillerPath(isBase: true, i), Bytes(random, 16 + random.Next(240))));
        }
        for (int i = 0; entries.Count < count; i++)
            entries.Add((FillerPath(isBase, i), Bytes(random, 16 + random.Next(240))));
        return entries.OrderBy(e => e.Path, StringComparer.Ordinal).ToList();
    }

    private static byte[] Bytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    /// <summary>One CPK's bytes, as CRI's packer lays them out (entries on 0x800 boundaries).</summary>
    public static byte[] Write(IReadOnlyList<(string Path, byte[] Content)> entries) =>
        CpkTestWriter.WriteNamed(entries.Select(e =>
        {
            int slash = e.Path.LastIndexOf('/');
            return new CpkTestWriter.NamedEntry(slash < 0 ? "" : e.Path[..slash], e.Path[(slash + 1)..], e.Content);
        }).ToList());
}
