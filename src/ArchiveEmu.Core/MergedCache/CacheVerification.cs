using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Packs;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache;

internal sealed partial class MergedFileCache
{
    /// <summary>The boot extents are recorded in and trusted for (<see cref="BootId"/>; another one in tests).</summary>
    internal string Boot { get; init; } = BootId.Current;

    private string VerifiedPath => Path.Combine(Folder, VerifiedExtents.FileName);

    /// <summary>Whether the merged extent was hash-checked in this boot while its pack had <paramref name="pack"/>, the identity of the handle a reader opened.</summary>
    private bool IsVerified(MergedExtent merged, FileIdentity pack) =>
        VerifiedExtents.Load(Folder, Boot).Covers(merged.Chunks.Pack, pack, Span(merged));

    /// <summary>
    /// Whether an open of <paramref name="merged"/> now would read its raw chunks without hashes: it was hash-checked in
    /// this boot while its pack had the size, mtime, ctime and inode it has now (for tools that model its reads).
    /// </summary>
    public bool IsVerified(MergedExtent merged)
    {
        try
        {
            return IsVerified(merged, FileIdentity.Of(_packs.PathOf(merged.Chunks.Pack)));
        }
        catch (Exception e) when (e is FileNotFoundException or InvalidDataException)
        {
            return false;
        }
    }

    private static VerifiedSpan Span(MergedExtent merged) => new(merged.Chunks.Offset, merged.Chunks.Length);

    /// <summary>
    /// After a writer's append to <paramref name="pack"/> (fsync'd, under the writer lock): what it wrote from memory is
    /// recorded as verified; what was recorded before is kept only if the pack was not changed since.
    /// </summary>
    private void RecordAppend(string pack, FileIdentity before, FileIdentity after, MergedExtent? written)
    {
        var record = VerifiedExtents.Load(Folder, Boot);
        record.Appended(pack, before, after, written is null ? null : Span(written));
        try
        {
            SaveVerified(record);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // the old record names the pack's old identity, so nothing in it is trusted: only slower, never wrong
            Warn($"{VerifiedPath}: could not record the extent just written as verified ({e.Message}); readers will check its hashes");
        }
    }

    /// <summary>What <c>verify</c> read back whole, per pack with the identity it had then; the caller holds the writer lock.</summary>
    private void RecordChecked(IEnumerable<(MergedExtent Merged, FileIdentity Pack)> checkedExtents)
    {
        var record = VerifiedExtents.Load(Folder, Boot);
        foreach (var group in checkedExtents.GroupBy(c => (c.Merged.Chunks.Pack, c.Pack)))
        {
            FileIdentity now;
            try
            {
                now = FileIdentity.Of(_packs.PathOf(group.Key.Item1));
            }
            catch (FileNotFoundException)
            {
                continue;
            }
            record.Checked(group.Key.Item1, group.Key.Item2, now, group.Select(c => Span(c.Merged)));
        }
        record.KeepOnly(_packs.Names());
        SaveVerified(record);
    }

    /// <summary>After gc: the new pack's copies of extents checked just before, and nothing of the packs it deleted.</summary>
    private void RecordCopies(string pack, FileIdentity created, FileIdentity now, IEnumerable<MergedExtent> copies)
    {
        var record = VerifiedExtents.Load(Folder, Boot);
        record.Appended(pack, created, now, null);
        record.Checked(pack, now, now, copies.Select(Span));
        record.KeepOnly(_packs.Names());
        try
        {
            SaveVerified(record);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Warn($"{VerifiedPath}: could not record the extents compacted as verified ({e.Message}); readers will check their hashes");
        }
    }

    private void SaveVerified(VerifiedExtents record) => WriteDurably(VerifiedPath, record.Serialize());
}
