using System.Globalization;
using System.IO.Hashing;
using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>
/// The cache key of a route: the cache format, the archive's format and route, the original's identity, the mods in
/// order, and every input (path, slice, identity; with content hashing, xxHash3 of its bytes). An identity is size,
/// mtime, ctime and inode (<see cref="FileIdentity"/>): new bytes under an old size and mtime still move the ctime.
/// Equal keys mean equal bytes; any change is a different key.
/// </summary>
internal static class RouteKey
{
    // One description per thread, reused: a route with hundreds of inputs writes ~100 KB of it on every open. Kept only up to
    // 256 Ki chars (512 KB) a thread, so a mount's many threads do not each hold a huge route's description.
    [ThreadStatic] private static StringBuilder? t_text;
    private const int MaxKeptChars = 1 << 18;

    /// <summary>The key of <paramref name="route"/> as the files are now. Stats the original and every input; reads them only with <paramref name="verifyContent"/>.</summary>
    /// <param name="folder">How the game folder is read when not by its own path: the key names every file by its shown path.</param>
    public static CacheKey For(ArchiveRoute route, IReadOnlyList<string> mods, bool verifyContent, ShownFolder? folder = null)
    {
        var text = t_text ?? new StringBuilder();
        t_text = null; // a key made while this one is (none today) gets its own
        text.Clear();
        AppendKey(text, route, mods, verifyContent, folder);
        var key = new CacheKey(Shown(folder, route.GamePath), text, folder);
        if (text.Capacity <= MaxKeptChars)
            t_text = text;
        return key;
    }

    // Paths by the game folder's own path (one entry however the folder is read); identities from the files read.
    private static string Shown(ShownFolder? folder, string path) => folder is null ? path : folder.Show(path);

    private static void AppendKey(StringBuilder text, ArchiveRoute route, IReadOnlyList<string> mods, bool verifyContent, ShownFolder? folder)
    {
        text.Append("archiveemu-cache ").Append(CacheFormat.Version).Append('\n');
        text.Append("format ").Append(route.Format.Name).Append('\n');
        text.Append("route ").Append(Shown(folder, route.GamePath)).Append('\n');
        if (route.Slice is { } slice)
            text.Append("slice ").Append(slice.Offset).Append('+').Append(slice.Length).Append('\n');
        text.Append("original ");
        AppendIdentity(text, FileIdentity.Of(route.GamePath));
        text.Append('\n');
        if (route.Slice is null && route.Follows is null && route.Format is IPairedFormat paired)
        {
            foreach (var companion in paired.CompanionFiles(route.GamePath)) // IMG v1's .dir: the index is read from it
            {
                text.Append("companion ").Append(Shown(folder, companion)).Append(' ');
                AppendIdentity(text, FileIdentity.Of(companion));
                text.Append('\n');
            }
        }
        for (int i = 0; i < mods.Count; i++)
            text.Append("mod ").Append(i).Append(' ').Append(mods[i]).Append('\n');
        AppendChanges(text, route, verifyContent, folder);
        // An ACB that follows its AWB, an IMG v1 .dir its .img: whatever changes the followed bytes changes its own.
        if (route.Follows is { } followed)
        {
            text.Append("follows ").Append(followed.RelativePath).Append('\n');
            AppendKey(text, followed, mods, verifyContent, folder);
            text.Append("end follows\n");
        }
        if (verifyContent)
            text.Append("content-verified\n");
    }

    /// <summary>The route's changes; a nested route's (docs/DESIGN.md, "Archives inside archives") at every depth, each after its entry.</summary>
    private static void AppendChanges(StringBuilder text, ArchiveRoute route, bool verifyContent, ShownFolder? folder)
    {
        foreach (var change in route.Patch.Changes)
        {
            text.Append("entry ").Append(change.Key.IsIndex ? "#" : "/");
            AppendEntryKey(text, change.Key);
            text.Append(" from ").Append(change.Origin).Append(": ");
            if (change.Input is not { } input)
                text.Append("delete");
            else if (input.File is { } file) // a merged Persona table: its runs are the key, as a route's inputs are
                AppendRuns(text, file, input, verifyContent, folder);
            else if (input.Path is null)
                text.Append("bytes ").Append(Convert.ToHexStringLower(XxHash3.Hash(input.Bytes.Span)));
            else
            {
                // The identity routing took (one stat per file): a file that changes after it fails the handle
                // pool's identity check on open, so it can never be served under this key.
                text.Append("file ").Append(Shown(folder, input.Path)).Append(" [").Append(input.Offset).Append('+').Append(input.Length).Append("] ");
                AppendIdentity(text, input.Identity ?? FileIdentity.Of(input.Path));
                if (verifyContent)
                    text.Append(" xxh3 ").Append(ContentHash(input));
            }
            text.Append('\n');
        }
        foreach (var nested in route.Nested)
        {
            // The inner original is a slice of the outer's file, whose identity is already in the key.
            text.Append("nested ").Append(nested.Entry.IsIndex ? "#" : "/");
            AppendEntryKey(text, nested.Entry);
            text.Append(" from ").Append(nested.Origin)
                .Append(": ").Append(nested.Route.Format.Name).Append(' ').Append(nested.Route.Slice!.Offset).Append('+').Append(nested.Route.Slice.Length).Append('\n');
            AppendChanges(text, nested.Route, verifyContent, folder);
            text.Append("end nested\n");
        }
    }

    /// <summary>
    /// A virtual input (a merged Persona table) by where its bytes come from: each file run by path and the identity it was built
    /// with (a file that changes since fails its handle's identity check, as any input's), each run held in memory by its
    /// xxHash3. Not its bytes hashed whole: the key is made on every open of the archive around it; with content verification, those too.
    /// </summary>
    private static void AppendRuns(StringBuilder text, VirtualFile file, EntryInput input, bool verifyContent, ShownFolder? folder)
    {
        text.Append("virtual ").Append(file.Length);
        foreach (var run in file.Segments)
        {
            text.Append(CultureInfo.InvariantCulture, $" | {run.Length} ");
            switch (run.Source)
            {
                case FileSource source:
                    text.Append("file ").Append(Shown(folder, source.Path)).Append(CultureInfo.InvariantCulture, $" @{run.SourceOffset} ");
                    AppendIdentity(text, source.Identity);
                    break;
                case MemorySource memory:
                    text.Append("bytes ").Append(Convert.ToHexStringLower(XxHash3.Hash(memory.Bytes.Span.Slice((int)run.SourceOffset, (int)run.Length))));
                    break;
                case ZeroSource:
                    text.Append("zeros");
                    break;
                default: // a source with no identity to name (none in a merged table today): its bytes are the key
                    text.Append("content xxh3 ").Append(ContentHash(input));
                    return;
            }
        }
        if (verifyContent)
            text.Append(" xxh3 ").Append(ContentHash(input));
    }

    // No device number: some change at every boot (btrfs, LVM, NFS), and the path already names the file system.
    private static void AppendIdentity(StringBuilder text, FileIdentity identity) =>
        text.Append(CultureInfo.InvariantCulture,
            $"{identity.Length} bytes mtime {identity.LastWriteUtc.Ticks} ctime {identity.ChangeUtc.Ticks} inode {identity.Inode}");

    // As EntryKey.ToString() writes it, without a string per entry
    private static void AppendEntryKey(StringBuilder text, EntryKey key)
    {
        if (key.Name is { } name)
            text.Append(name);
        else
            text.Append(CultureInfo.InvariantCulture, $"{key.Index}");
    }

    private static string ContentHash(EntryInput input)
    {
        var hash = new XxHash3();
        var buffer = new byte[1 << 20];
        for (long at = 0; at < input.Length;)
        {
            int n = input.Read(at, buffer);
            hash.Append(buffer.AsSpan(0, n));
            at += n;
        }
        return Convert.ToHexStringLower(hash.GetCurrentHash());
    }
}
