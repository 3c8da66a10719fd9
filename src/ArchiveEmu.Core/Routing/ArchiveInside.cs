using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>An entry of an archive that holds an archive, which a mod path goes through, and the rest of that path.</summary>
/// <param name="Key">The entry of the outer archive.</param>
/// <param name="Folder">The path component(s) naming it as the mod spells them ("init/loading.arc", "7_voice.pak").</param>
/// <param name="Source">The inner archive: the entry's stored bytes, a slice of the outer's holding file.</param>
/// <param name="Rest">The path below it, for the inner archive.</param>
internal sealed record ThroughEntry(EntryKey Key, string Folder, ArchiveSource Source, IArchiveFormat Format, string Rest);

/// <summary>
/// Finds which entry of one archive a mod path goes through (docs/DESIGN.md, "Archives inside archives"): an entry whose
/// name is the whole path is that entry; else the longest entry name made of leading whole components that holds an
/// archive takes the rest; else the path is a new entry. Index formats: a folder named like an entry file (<c>7/</c>,
/// <c>7_name.pak/</c>). The archive's index is read on the first path that could go through an entry, once per
/// <see cref="ModRouter.WalkMods"/>, and each entry's format detected once.
/// </summary>
internal sealed class ArchiveInside(string relativePath, string gamePath, IArchiveFormat format, ArchiveSource? slice, DecodedEntries decoded,
    Func<EntryAddressing> addressing)
{
    private ArchiveIndex? _index;
    private Dictionary<string, ArchiveEntry>? _names;
    private readonly Dictionary<int, IArchiveFormat?> _formats = new();

    /// <summary>
    /// The entry <paramref name="relative"/> (below the archive's folder) goes through, or null when it names an entry itself
    /// (by <paramref name="naming"/>: <c>x.del</c> names entry <c>x</c> in the mirror layout, <c>x.del</c> in FEF's).
    /// </summary>
    public ThroughEntry? Find(string relative, string modFile, EntryNaming naming)
    {
        int slash = relative.IndexOf('/');
        if (slash < 0)
            return null;
        if (addressing() == EntryAddressing.ByIndex)
        {
            var folder = relative[..slash];
            if (!EntryFileName.IsIndexName(folder))
                return null; // EntryFileName refuses it, naming the file
            int index = EntryFileName.IndexOf(folder);
            var entry = Index.EntryAtIndexKey(index) ?? throw Refuse(folder, format.Addressing == EntryAddressing.ByIndex
                ? $"mod file {modFile} goes through entry {index}, but the archive has {Index.Entries.Count} entries"
                : $"mod file {modFile} goes through entry ID {index}, but the archive has no such ID");
            return Open(entry, EntryKey.ByIndex(index), folder, relative[(slash + 1)..], modFile) ?? throw NotAnArchive(folder, modFile);
        }

        var (key, _) = naming(relative, EntryAddressing.ByName, modFile);
        var names = Names;
        if (names.ContainsKey(key.Name!))
            return null;
        string? notArchive = null;
        for (int end = relative.LastIndexOf('/'); end > 0; end = relative.LastIndexOf('/', end - 1))
        {
            // An empty entry holds no archive, nor is it a file a path could not go below: a tar folder may be written without its '/'.
            if (!names.TryGetValue(relative[..end], out var entry) || entry.Size == 0)
                continue;
            if (Open(entry, EntryKey.ByName(entry.Name!), entry.Name!, relative[(end + 1)..], modFile) is { } through)
                return through; // named as the archive spells it (IMG ignores case)
            notArchive ??= entry.Name;
        }
        // A new entry below an entry that is a plain file would put a file inside a file: surely not what the mod means.
        return notArchive is null ? null : throw NotAnArchive(notArchive, modFile);
    }

    private ArchiveIndex Index => _index ??= RecentIndexes.Read(format, slice ?? ArchiveSource.File(gamePath));

    /// <summary>
    /// The original's entry <paramref name="name"/> (else the one so named but for letter case) as the archive spells it, and
    /// its content (decoded once if stored encoded), read from the index this walk already holds; null when the archive has no
    /// such entry, cannot be read, or stores it in a way not read in place.
    /// </summary>
    public (string Name, ArchiveSource Content)? ContentOf(string name)
    {
        if (!Names.TryGetValue(name, out var entry))
            entry = Names.Values.FirstOrDefault(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase));
        return entry is not null && Content(Index, entry, decoded) is { } content ? (entry.Name!, content) : null;
    }

    /// <summary>
    /// The entries by name, read once; none when the original cannot be read: its paths are then entry names, as before
    /// archives inside archives, and building it reports the damage beside the other archives (`archiveemu build`:
    /// docs/USAGE.md, "failed").
    /// </summary>
    private Dictionary<string, ArchiveEntry> Names => _names ??= ReadNames();

    private Dictionary<string, ArchiveEntry> ReadNames()
    {
        var names = new Dictionary<string, ArchiveEntry>(format.NameComparer);
        try
        {
            foreach (var entry in Index.Entries)
            {
                if (entry.Name is { } name)
                    names.TryAdd(name, entry);
            }
        }
        catch (ArchiveFormatException)
        {
            // no names: the index failed before its first entry
        }
        return names;
    }

    private ThroughEntry? Open(ArchiveEntry entry, EntryKey key, string folder, string rest, string modFile)
    {
        if (Index.WhyNotInPlace(entry) is { } why)
            throw Refuse(folder, $"mod file {modFile} goes through it, but it is {why}");
        var source = Content(Index, entry, decoded)!;
        if (!_formats.TryGetValue(entry.Index, out var inner))
            _formats[entry.Index] = inner = ArchiveFormats.Detect(source);
        return inner is null ? null : new ThroughEntry(key, folder, source, inner, rest);
    }

    /// <summary>
    /// The bytes of an entry as an archive inside reads them: a slice of the holding file, or its decoded copy when stored
    /// compressed (the one copy: decoded once, into the cache folder or a private file); null when it cannot be read in place.
    /// </summary>
    internal static ArchiveSource? Content(ArchiveIndex index, ArchiveEntry entry, DecodedEntries decoded)
    {
        if (index.WhyNotInPlace(entry) is not null)
            return null;
        var holder = index.Source;
        var source = new ArchiveSource(holder.Path, holder.Offset + entry.Offset, entry.Size, holder.Identity);
        return index.StoredCodec(entry) is { } encoding ? decoded.Open(source, encoding) : source;
    }

    private ArchiveFormatException NotAnArchive(string folder, string modFile) =>
        Refuse(folder, $"mod file {modFile} goes through it, but it is not an archive format ArchiveEmu knows (" + ArchiveFormats.KnownNames + ")");

    private ArchiveFormatException Refuse(string folder, string problem) => new($"{relativePath}/{folder}", 0, problem);
}
