using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Cli.Archives;

/// <summary>
/// The bytes <c>cat ARCHIVE/ENTRY</c> writes: the entry of the emulated archive, named as <c>ls</c> prints it (by index where the
/// format has no names), as stored in the archive, or decoded when asked and stored encoded (a CRILAYLA CPK entry).
/// </summary>
internal static class EntryBytes
{
    /// <summary>
    /// The entry <paramref name="name"/> of <paramref name="archive"/> at <paramref name="archivePath"/> as a virtual file (the caller
    /// disposes it); a missing or deleted entry is a <see cref="FileNotFoundException"/> of one line naming both.
    /// </summary>
    public static VirtualFile Open(EmulatedArchive archive, string archivePath, string name, bool decode)
    {
        var entry = Find(archive, archivePath, name);
        var builder = new VirtualFileBuilder();
        if (entry.State == EntryState.Deleted) // an index format's slot a mod emptied: the archive holds it, with no bytes
            return builder.Build();
        if (entry.Input is { } input) // a mod's file, a merged table or an emulated archive inside: the bytes the builder placed
        {
            // A builder that converts its input (a TXD texture from a DDS) stores other bytes than the input's: not written as if stored.
            if (input.Length != entry.Size)
                throw new IOException($"{archivePath}: entry '{name}' is stored as {entry.Size} bytes converted from the {input.Length}-byte {input}; "
                    + "cat writes an entry only as stored, and this one is not kept apart from the archive");
            input.AppendTo(builder);
            return builder.Build();
        }
        var stored = StoredOf(archive, entry);
        if (decode && archive.Original.StoredCodec(stored) is { } encoding)
            return Decoded(archive.Original, stored, encoding);
        archive.Original.AppendOriginal(builder, stored.Offset, stored.Size);
        return builder.Build();
    }

    /// <summary>The entry <paramref name="name"/> names as <c>ls</c> prints it (a deleted one too), or null.</summary>
    public static EmulatedEntry? TryFind(EmulatedArchive archive, string name)
    {
        var format = archive.Original.Format;
        var entries = archive.Entries;
        bool byIndex = format.Addressing == EntryAddressing.ByIndex; // as ls: only an index format keeps a deleted entry's slot
        // As ls prints it: a name (the format's letter case first, then any), else the index where the format addresses by index or the entry has no name.
        return entries.FirstOrDefault(e => e.Name is not null && format.NameComparer.Equals(e.Name, name))
            ?? Single(entries.Where(e => string.Equals(e.Name, name, StringComparison.OrdinalIgnoreCase)))
            ?? (int.TryParse(name, System.Globalization.NumberStyles.None, null, out int index)
                ? entries.FirstOrDefault(e => e.Index == index && (e.Name is null || byIndex) && (e.State != EntryState.Deleted || byIndex)) : null);
    }

    private static EmulatedEntry Find(EmulatedArchive archive, string archivePath, string name)
    {
        bool byIndex = archive.Original.Format.Addressing == EntryAddressing.ByIndex;
        var found = TryFind(archive, name) ?? throw new FileNotFoundException($"{archivePath}: no entry '{name}'{Closest(archive.Entries, name)}");
        if (found.State == EntryState.Deleted && !byIndex)
            throw new FileNotFoundException($"{archivePath}: entry '{name}' is deleted by {found.Origin}");
        return found;
    }

    private static EmulatedEntry? Single(IEnumerable<EmulatedEntry> matches)
    {
        var list = matches.Take(2).ToList();
        return list.Count == 1 ? list[0] : null;
    }

    // Up to three names (or indexes) nearest to the one asked, as a user who mistyped would want them.
    private static string Closest(IReadOnlyList<EmulatedEntry> entries, string name)
    {
        var near = entries.Where(e => e.State != EntryState.Deleted)
            .Select(e => e.Name ?? e.Index.ToString(System.Globalization.CultureInfo.InvariantCulture))
            .Select(n => (Name: n, Distance: EditDistance.IgnoringCase(n, name)))
            .Where(n => n.Distance <= Math.Max(1, name.Length / 3) && n.Distance < name.Length)
            .OrderBy(n => n.Distance).ThenBy(n => n.Name, StringComparer.Ordinal).Take(3).Select(n => n.Name).ToList();
        return near.Count == 0 ? $" (the archive has {entries.Count(e => e.State != EntryState.Deleted)} entries; list them with archiveemu ls)"
            : $"; closest: {string.Join(", ", near)}";
    }

    // An entry left as the original has it: the same name, else (no names) the same slot.
    private static ArchiveEntry StoredOf(EmulatedArchive archive, EmulatedEntry entry) =>
        (entry.Name is not null ? archive.Original.Entries.FirstOrDefault(e => e.Name == entry.Name) : NamelessOriginal(archive, entry))
        ?? throw new InvalidOperationException($"{archive.Original.Source.Name}: entry {entry.Name ?? entry.Index.ToString(System.Globalization.CultureInfo.InvariantCulture)} is not in the original");

    // AFS and AWB keep every slot where it was; an ID-only CPK lists its entries by ID, added IDs among them, so the k-th
    // entry that came from the original is the original's k-th kept ID.
    private static ArchiveEntry? NamelessOriginal(EmulatedArchive archive, EmulatedEntry entry)
    {
        if (archive.Original is not CpkIndex cpk)
            return archive.Original.Entries.ElementAtOrDefault(entry.Index);
        var deleted = archive.Entries.Where(e => e.State == EntryState.Deleted).Select(e => cpk.Ids[e.Index]).ToHashSet();
        var kept = cpk.Ids.Select((id, position) => (Id: id, Position: position)).Where(p => !deleted.Contains(p.Id)).OrderBy(p => p.Id).ToList();
        int k = archive.Entries.Count(e => e.Index < entry.Index && e.State is EntryState.Original or EntryState.Replaced);
        return k < kept.Count ? cpk.Entries[kept[k].Position] : null;
    }

    // The codec writes the content to a file: a scratch one, read back into memory and deleted at once.
    private static VirtualFile Decoded(ArchiveIndex original, ArchiveEntry stored, StoredEncoding encoding)
    {
        if (original.WhyNotInPlace(stored) is { } why)
            throw new ArchiveFormatException(original.Source.Name, stored.Offset, $"entry {stored.Name ?? stored.Index.ToString(System.Globalization.CultureInfo.InvariantCulture)} cannot be decoded: it is {why}");
        var holder = original.Source;
        var source = new ArchiveSource(holder.Path, holder.Offset + stored.Offset, stored.Size, holder.Identity);
        var path = Path.GetTempFileName();
        try
        {
            using (var handle = File.OpenHandle(path, FileMode.Truncate, FileAccess.ReadWrite))
                encoding.Codec.Decode(source, encoding.ContentLength, handle);
            return new VirtualFileBuilder().AppendBytes(File.ReadAllBytes(path)).Build();
        }
        finally
        {
            File.Delete(path);
        }
    }
}
