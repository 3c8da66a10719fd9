using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// A format stand-in for routing tests: only its addressing and name comparison matter to the router, and its index has no
/// entries (routing reads an index only to find a path through an entry, docs/DESIGN.md "Archives inside archives").
/// </summary>
internal sealed class FakeFormat(EntryAddressing addressing, StringComparer names, string name = "fake") : IArchiveFormat
{
    public static FakeFormat Index { get; } = new(EntryAddressing.ByIndex, StringComparer.Ordinal);
    public static FakeFormat Names { get; } = new(EntryAddressing.ByName, StringComparer.Ordinal);
    public static FakeFormat NamesIgnoringCase { get; } = new(EntryAddressing.ByName, StringComparer.OrdinalIgnoreCase);

    public string Name => name;
    public string DisplayName => name;
    public EntryAddressing Addressing => addressing;
    public StringComparer NameComparer => names;
    public bool Detect(ReadOnlySpan<byte> head, long length) => false;
    public ArchiveIndex ReadIndex(string path) => ReadIndex(ArchiveSource.File(path));
    public ArchiveIndex ReadIndex(ArchiveSource source) => new EmptyIndex(source, this);
    public EmulatedArchive Build(ArchiveIndex original, ArchivePatch patch, FileHandlePool? pool = null) => throw new InvalidOperationException("routing must not build archives");
}

internal sealed class EmptyIndex(ArchiveSource source, IArchiveFormat format) : ArchiveIndex(source, [])
{
    public override IArchiveFormat Format => format;
}
