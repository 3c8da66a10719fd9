using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>An entry of an emulated archive and where its bytes come from.</summary>
/// <param name="Index">Position in the emulated archive's table (for a deleted entry: where it was in the original).</param>
/// <param name="Name">The entry's name, or null where the format has none.</param>
/// <param name="Size">Size in bytes (0 for a deleted entry).</param>
/// <param name="State">Original, replaced, added or deleted.</param>
/// <param name="Origin">"original" or the mod (EntryChange.Origin) that supplied or removed it.</param>
/// <param name="Input">The injected bytes, for replaced and added entries.</param>
internal sealed record EmulatedEntry(int Index, string? Name, long Size, EntryState State, string Origin, EntryInput? Input = null)
{
    /// <summary>The <see cref="Origin"/> of an entry as the original archive has it.</summary>
    public const string OriginalOrigin = "original";

    /// <summary>The <see cref="Origin"/> of an entry <paramref name="change"/> gives (null: none does).</summary>
    public static string OriginOf(EntryChange? change) => change?.Origin ?? OriginalOrigin;

    /// <summary>What the format can say of the entry beyond its size, for listings (a TXD texture: "DXT1 256x256, 9 mips"); null when nothing.</summary>
    public string? Detail { get; init; }
}

/// <summary>An entry list that knows its counts by state without making its entries (a restored layout's).</summary>
internal interface IEntryStateCounts
{
    int CountOf(EntryState state);
}

/// <summary>
/// A modded archive as one virtual file, with its entry list. Owns the virtual file: disposing the
/// archive disposes it.
/// </summary>
internal sealed class EmulatedArchive : IDisposable
{
    public EmulatedArchive(ArchiveIndex original, VirtualFile file, IReadOnlyList<EmulatedEntry> entries)
    {
        Original = original;
        File = file;
        Entries = entries;
    }

    public ArchiveIndex Original { get; }
    public VirtualFile File { get; }

    /// <summary>Entries in emulated order, then deleted ones (State = Deleted).</summary>
    public IReadOnlyList<EmulatedEntry> Entries { get; }

    public int Count(EntryState state) =>
        Entries is IEntryStateCounts counted ? counted.CountOf(state) : Entries.Count(e => e.State == state);

    /// <summary>Bytes of the emulated archive read from the original file.</summary>
    public long BytesFromOriginal => SumSegments(s => s.Source is FileSource f && f.Path == Original.Path);

    /// <summary>Bytes read from other files (loose files from mods).</summary>
    public long BytesFromLooseFiles => SumSegments(s => s.Source is FileSource f && f.Path != Original.Path);

    /// <summary>Bytes generated in memory (rebuilt headers) or zero padding.</summary>
    public long BytesGenerated => File.Length - BytesFromOriginal - BytesFromLooseFiles;

    private long SumSegments(Func<Segment, bool> predicate)
    {
        long sum = 0;
        foreach (var s in File.Segments)
            if (predicate(s))
                sum += s.Length;
        return sum;
    }

    public void Dispose() => File.Dispose();
}
