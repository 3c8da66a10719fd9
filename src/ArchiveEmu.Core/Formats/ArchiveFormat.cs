using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>
/// What every format shares around its own rules: a path read as the whole file; the index a builder gets checked once
/// to be this format's <typeparamref name="TIndex"/> (an index of another format is an <see cref="ArgumentException"/>); and
/// no change served as the original, byte for byte, with every entry <see cref="EntryState.Original"/>.
/// </summary>
internal abstract class ArchiveFormat<TIndex> : IArchiveFormat where TIndex : ArchiveIndex
{
    public abstract string Name { get; }
    public abstract string DisplayName { get; }
    public abstract EntryAddressing Addressing { get; }
    public abstract StringComparer NameComparer { get; }
    public virtual IReadOnlyList<string> Extensions => [];

    public virtual EntryAddressing AddressingOf(ArchiveSource source) => Addressing;

    public abstract bool Detect(ReadOnlySpan<byte> head, long length);

    public ArchiveIndex ReadIndex(string path) => ReadIndex(ArchiveSource.File(path));

    public abstract ArchiveIndex ReadIndex(ArchiveSource source);

    public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null)
    {
        var index = Own(original);
        if (patch.Changes.Count > 0 || !UnchangedIsOriginal)
            return BuildArchive(index, patch, pool);
        var builder = new VirtualFileBuilder(pool, expectedSegments: 1);
        index.AppendOriginal(builder, 0, index.Length);
        return new EmulatedArchive(index, builder.Build(), UnchangedEntries(index));
    }

    /// <summary>The emulated archive of this format's own <paramref name="original"/> with at least one change (<see cref="IArchiveFormat.Build"/>).</summary>
    protected abstract EmulatedArchive BuildArchive(TIndex original, ArchivePatch patch, FileHandlePool? pool);

    /// <summary>False for a format that rebuilds even an archive no mod changes (an ACB's in-memory AWB, its entries the AWB's).</summary>
    protected virtual bool UnchangedIsOriginal => true;

    /// <summary>The entry list of the original served unchanged: each entry's index, name and size, from "original".</summary>
    protected virtual IReadOnlyList<EmulatedEntry> UnchangedEntries(TIndex original) =>
        original.Entries.Select(e => new EmulatedEntry(e.Index, e.Name, e.Size, EntryState.Original, EmulatedEntry.OriginalOrigin)).ToArray();

    /// <summary><paramref name="original"/> as the index this format builds from (<see cref="AsIndex"/>, unless a format has two views of one index).</summary>
    protected virtual TIndex Own(ArchiveIndex original) => AsIndex(original);

    /// <summary><paramref name="original"/> as this format's index; another format's is an <see cref="ArgumentException"/>.</summary>
    protected static TIndex AsIndex(ArchiveIndex original) =>
        original as TIndex ?? throw new ArgumentException($"not a {typeof(TIndex).Name} but {original?.GetType().Name ?? "null"}", nameof(original));
}
