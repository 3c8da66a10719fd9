namespace ArchiveEmu.Core.Formats;

/// <summary>
/// The indexes of the largest originals read lately, kept for the next read of the same bytes: one resolve reads a P5R CPK's
/// 40,000-entry TOC for the CRI hook's folders, for FEmulator routes into its entries and for the build, and a mount reads it
/// again on every hot reload. A read is the same when its <see cref="ArchiveSource"/> is — the same file, slice and
/// <see cref="VirtualFiles.FileIdentity"/> (size, mtime, ctime, inode) stat'ed now —, so a changed file is read afresh.
/// Indexes are immutable once read (builders copy the tables they change), so one is shared by every reader and thread.
/// </summary>
internal static class RecentIndexes
{
    /// <summary>Smaller indexes are read again: they cost less than a P5R TOC by orders of magnitude and would crowd it out.</summary>
    internal const int MinEntries = 4096;

    /// <summary>How many indexes are kept (the most recently used): a game's few large archives, each some MB in memory.</summary>
    internal const int Capacity = 4;

    private static readonly LinkedList<(IArchiveFormat Format, ArchiveSource Source, ArchiveIndex Index)> s_recent = new();

    /// <summary>The index of <paramref name="source"/> as <paramref name="format"/> reads it: a kept one, else read now (and kept when large).</summary>
    public static ArchiveIndex Read(IArchiveFormat format, ArchiveSource source)
    {
        lock (s_recent)
        {
            for (var node = s_recent.First; node is not null; node = node.Next)
            {
                if (node.Value.Format == format && node.Value.Source == source)
                {
                    s_recent.Remove(node);
                    s_recent.AddFirst(node);
                    return node.Value.Index;
                }
            }
        }
        var index = format.ReadIndex(source);
        if (index.Entries.Count >= MinEntries)
        {
            lock (s_recent)
            {
                s_recent.AddFirst((format, source, index));
                while (s_recent.Count > Capacity)
                    s_recent.RemoveLast();
            }
        }
        return index;
    }

    /// <summary>Forgets every kept index (tests that count reads).</summary>
    internal static void Clear()
    {
        lock (s_recent)
            s_recent.Clear();
    }
}
