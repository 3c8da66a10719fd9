using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Routing;

/// <summary>A named CPK of the game: where it is, its index, and its entries by name (letter case aside).</summary>
internal sealed record GameCpk(string Relative, IArchiveFormat Format, ArchiveIndex Index, Dictionary<string, ArchiveEntry> Names)
{
    private ILookup<string, ArchiveEntry>? _byFileName;

    /// <summary>Whether an entry is the path, or holds it (an entry named by its leading components: an archive inside).</summary>
    public bool Holds(string path)
    {
        for (int end = path.Length; end > 0; end = path.LastIndexOf('/', end - 1))
        {
            if (Names.ContainsKey(path[..end]))
                return true;
        }
        return false;
    }

    /// <summary>Whether a folder is named after this CPK: its file name, or that name without the extension.</summary>
    public bool NamedAs(string folder)
    {
        var name = Path.GetFileName(Relative);
        return name.Equals(folder, StringComparison.OrdinalIgnoreCase) || Path.GetFileNameWithoutExtension(name).Equals(folder, StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>The entries whose last path component is <paramref name="fileName"/>, letter case aside (built on first use).</summary>
    public IEnumerable<ArchiveEntry> NamedFile(string fileName) =>
        (_byFileName ??= Names.Values.ToLookup(e => e.Name![(e.Name!.LastIndexOf('/') + 1)..], StringComparer.OrdinalIgnoreCase))[fileName];
}

/// <summary>
/// The game's named CPKs, listed and their indexes read once per <see cref="ModRouter.WalkMods"/>, and only when a mod's layout
/// looks into CPKs (CRIFsV2Hook folders, FEmulator routes): CRI FileSystem V2 Hook's folders and FEF routes into CPK entries
/// share one listing. An entry holding an archive is opened (decoded if stored compressed) and its format detected only when a
/// route names it: P5R's CPKs hold tens of thousands of entries.
/// </summary>
internal sealed class GameCpks(string gameRoot, IReadOnlyDictionary<string, (ArchiveSource Source, IArchiveFormat Format)> slices,
    Func<string, IArchiveFormat?> detect, DecodedEntries decoded, string language)
{
    private GameCpk[]? _cpks;
    private readonly Dictionary<(string Cpk, int Entry), (ArchiveSource Source, IArchiveFormat? Format)> _opened = new();

    /// <summary>
    /// The game's named CPKs (files ending in .cpk, and CPK slices), in ordinal order, each index read once; ID-only CPKs hold no
    /// paths (the hook cannot redirect loads by ID) and are left out, as is a CPK whose index cannot be read.
    /// </summary>
    public GameCpk[] All => _cpks ??= ReadAll(GameTree.Files(gameRoot)
        .Where(r => r.EndsWith(".cpk", StringComparison.OrdinalIgnoreCase))
        .Concat(slices.Where(s => s.Value.Format == CpkFormat.Instance).Select(s => s.Key))
        .Distinct().Order(StringComparer.Ordinal).Select(Named).OfType<(string, ArchiveSource, IArchiveFormat)>().ToArray());

    // Each CPK's index on its own thread: P5R's two 40,000-entry TOCs are most of a resolve's reading.
    private static GameCpk[] ReadAll((string Relative, ArchiveSource Source, IArchiveFormat Format)[] named)
    {
        var read = new GameCpk?[named.Length];
        Parallel.For(0, named.Length, i => read[i] = Read(named[i].Relative, named[i].Source, named[i].Format));
        return read.OfType<GameCpk>().ToArray();
    }

    /// <summary>
    /// The CPKs in the order Persona Essentials looks for an original (p5rpc.modloader Mod_Merging.cs): the CPK of the game's
    /// language first (English: EN.CPK, DATA_E.CPK, data_EN.cpk), the base CPK second (BASE.CPK, DATA.CPK,
    /// umd0.cpk), then the rest.
    /// </summary>
    public IEnumerable<GameCpk> EssentialsOrder => All.OrderBy(c => Rank(Path.GetFileNameWithoutExtension(c.Relative)));

    private int Rank(string name) => Rank(name, _languageCpks);

    /// <summary>Where the CPK at <paramref name="relative"/> stands in <see cref="EssentialsOrder"/> for <paramref name="language"/>: 0, 1 or 2.</summary>
    public static int EssentialsRank(string relative, string language) =>
        Rank(Path.GetFileNameWithoutExtension(relative), new HashSet<string>(LanguageCpks(language), StringComparer.OrdinalIgnoreCase));

    private static int Rank(string name, HashSet<string> languageCpks) => languageCpks.Contains(name) ? 0 : s_baseCpks.Contains(name) ? 1 : 2;

    private readonly HashSet<string> _languageCpks = new(LanguageCpks(language), StringComparer.OrdinalIgnoreCase);

    private static readonly HashSet<string> s_baseCpks = new(["BASE", "DATA", "umd0"], StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// The names (without .cpk) of a language's CPK in P5R, P4G and P3P, by Localisation Framework id, as Essentials lists them per
    /// language (<c>_cpkNames</c>); a language those games do not ship (pl, pt, ru, tr) looks for English's, Essentials' default.
    /// Names compare letter case aside, so where P4G's and P3P's differ only in case (<c>DATA_DE</c>, <c>data_DE</c>) one is listed.
    /// </summary>
    private static string[] LanguageCpks(string language) => language.ToLowerInvariant() switch
    {
        "ja" => ["JP", "DATA", "umd0"],
        "de" => ["DE", "DATA_DE"],
        "fr" => ["FR", "DATA_FR"],
        "it" => ["IT", "DATA_IT"],
        "ko" => ["KR", "DATA_K", "data_KR"],
        "es" => ["ES", "DATA_ES"],
        "zh-hans" => ["SC", "DATA_CK"],
        "zh-hant" => ["TC", "DATA_CH"],
        _ => ["EN", "DATA_E", "data_EN"],
    };

    /// <summary>
    /// The content of an entry and its format (null: no archive ArchiveEmu knows), opened once: a compressed entry is decoded
    /// through <see cref="DecodedEntries"/>, as a mod path through it would be. Every CPK entry can be read so (stored, or
    /// CRILAYLA), so there is always content.
    /// </summary>
    public (ArchiveSource Source, IArchiveFormat? Format) Open(GameCpk cpk, ArchiveEntry entry)
    {
        if (_opened.TryGetValue((cpk.Relative, entry.Index), out var opened))
            return opened;
        var source = ArchiveInside.Content(cpk.Index, entry, decoded)
            ?? throw new InvalidOperationException($"{cpk.Relative}: entry {entry.Name} cannot be read in place, which no CPK entry should be");
        return _opened[(cpk.Relative, entry.Index)] = (source, ArchiveFormats.Detect(source));
    }

    /// <summary>The CPK at <paramref name="relative"/> when it is one with named entries (an ID-only CPK holds no paths), else null.</summary>
    private (string, ArchiveSource, IArchiveFormat)? Named(string relative)
    {
        var full = GamePaths.Full(gameRoot, relative);
        if (!slices.ContainsKey(relative) && !GamePaths.FileExists(full))
            return null; // a symlink leading nowhere holds nothing
        try
        {
            var (source, format) = slices.TryGetValue(relative, out var slice) ? slice : (ArchiveSource.File(full), detect(full));
            return format?.Name == "cpk" && format.AddressingOf(source) == EntryAddressing.ByName ? (relative, source, format) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) // ArchiveFormatException is one
        {
            return null; // building it, if a mod reaches it otherwise, reports the damage
        }
    }

    private static GameCpk? Read(string relative, ArchiveSource source, IArchiveFormat format)
    {
        try
        {
            var index = RecentIndexes.Read(format, source);
            var names = new Dictionary<string, ArchiveEntry>(index.Entries.Count, format.NameComparer);
            foreach (var entry in index.Entries)
                names.TryAdd(entry.Name!, entry);
            return new GameCpk(relative, format, index, names);
        }
        // ArchiveFormatException is an IOException; an unreadable CPK escaped Parallel.For as an AggregateException.
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // building it, if a mod reaches it otherwise, reports the damage
        }
    }
}
