using System.Collections.Concurrent;
using System.IO.Hashing;
using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Decodes an entry stored encoded (ZIP deflate, CPK CRILAYLA) that holds an archive a mod path goes through, once
/// (docs/DESIGN.md, "Archives inside archives"): into the merged file cache's folder (<c>decoded/</c>) when there is one that
/// takes files, keyed by what it was decoded from (the holding file's identity, the entry's offset and stored size, the
/// codec), so a second build or open reuses it and a changed outer archive misses; else into an unnamed private temporary
/// file, held open by this process. The one copy archives inside archives make: an inner archive's bytes must be readable.
/// </summary>
internal sealed class DecodedEntries(string? cacheFolder)
{
    /// <summary>The folder under the cache folder that holds decoded entries.</summary>
    public const string FolderName = EntryCodec.CacheFolderName;

    // Private files by key, held open for the rest of the process: later resolves (hot reload, a mod folder added) reuse them.
    private static readonly ConcurrentDictionary<string, Lazy<Decoded>> s_private = new();
    private static readonly ConcurrentDictionary<string, int> s_decodes = new(StringComparer.Ordinal);

    /// <summary>How many times entries held by <paramref name="holdingPath"/> were decoded in this process (tests: a reuse decodes nothing).</summary>
    internal static int DecodesOf(string holdingPath) => s_decodes.GetValueOrDefault(holdingPath);

    /// <summary>The decoded content of the entry stored at <paramref name="stored"/>, decoded now unless it already was.</summary>
    public ArchiveSource Open(ArchiveSource stored, StoredEncoding encoding)
    {
        var key = $"{encoding.Codec.Name}\n{stored.Path}\n{stored.Identity}\n{stored.Offset}\n{stored.Length}\n{encoding.ContentLength}";
        if (cacheFolder is not null && InCache(stored, encoding, key) is { } cached)
            return cached.Source;
        return s_private.GetOrAdd(key, _ => new Lazy<Decoded>(() => Private(stored, encoding))).Value.Source;
    }

    /// <summary>A decoded entry: where its content is, and for a private file the stream that keeps it.</summary>
    private sealed record Decoded(ArchiveSource Source, FileStream? Keep);

    /// <summary>From the cache folder, decoding into it first if needed; null when the folder takes no file.</summary>
    private Decoded? InCache(ArchiveSource stored, StoredEncoding encoding, string key)
    {
        var folder = Path.Combine(cacheFolder!, FolderName);
        var path = Path.Combine(folder, Convert.ToHexStringLower(XxHash128.Hash(Encoding.UTF8.GetBytes(key))) + ".bin");
        if (Reuse(path, encoding.ContentLength) is { } reused)
            return reused;
        string temporary = Path.Combine(folder, $".{Path.GetFileName(path)}.{Environment.ProcessId}.{Guid.NewGuid():N}");
        try
        {
            PrivateFiles.CreateFolder(folder);
            using (var output = PrivateFiles.Open(temporary, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0))
            {
                Run(stored, encoding, output.SafeFileHandle);
                output.Flush(flushToDisk: true);
            }
            Publish(temporary, path, encoding.ContentLength);
            return Reuse(path, encoding.ContentLength);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException && e is not ArchiveFormatException)
        {
            return null; // a read-only or full cache folder: a private file instead, never an error
        }
        finally
        {
            TryDelete(temporary);
        }
    }

    /// <summary>
    /// Renames the decoded file into place, whole or not at all, so a reader never sees half of one; never over another
    /// process's copy of the same key (a reader of that one holds its identity), only over a file of the wrong size.
    /// </summary>
    private static void Publish(string temporary, string path, long length)
    {
        try
        {
            File.Move(temporary, path, overwrite: false);
        }
        catch (IOException) when (File.Exists(path))
        {
            if (new FileInfo(path).Length != length)
                File.Move(temporary, path, overwrite: true);
        }
    }

    private static Decoded? Reuse(string path, long length)
    {
        try
        {
            var identity = FileIdentity.Of(path);
            if (identity.Length != length)
                return null;
            MarkUsed(path);
            return new Decoded(new ArchiveSource(path, 0, length, identity), null);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// Decodes into a file no other process can open: created 0600 in the temporary folder and unlinked at once (Linux: named
    /// again through /proc/self/fd while this process holds it open), elsewhere deleted when the handle closes.
    /// </summary>
    private static Decoded Private(ArchiveSource stored, StoredEncoding encoding)
    {
        var path = Path.Combine(Path.GetTempPath(), $"archiveemu-decoded-{Environment.ProcessId}-{Guid.NewGuid():N}");
        bool linux = OperatingSystem.IsLinux() && Directory.Exists("/proc/self/fd");
        var file = PrivateFiles.Open(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete,
            linux ? FileOptions.None : FileOptions.DeleteOnClose, bufferSize: 0);
        try
        {
            if (linux)
            {
                File.Delete(path); // nothing left behind, whatever happens to this process
                path = $"/proc/self/fd/{file.SafeFileHandle.DangerousGetHandle()}";
            }
            Run(stored, encoding, file.SafeFileHandle);
            return new Decoded(new ArchiveSource(path, 0, encoding.ContentLength, FileIdentity.Of(file.SafeFileHandle)), file);
        }
        catch
        {
            file.Dispose();
            if (!linux)
                TryDelete(path);
            throw;
        }
    }

    private static void Run(ArchiveSource stored, StoredEncoding encoding, SafeFileHandle output)
    {
        encoding.Codec.Decode(stored, encoding.ContentLength, output);
        s_decodes.AddOrUpdate(stored.Path, 1, (_, n) => n + 1);
    }

    /// <summary>Touches the entry's <c>.used</c> marker, which <c>gc</c> ages it by: the decoded file's own mtime is part of its identity.</summary>
    private static void MarkUsed(string path)
    {
        var marker = Path.ChangeExtension(path, ".used");
        try
        {
            using (File.Open(marker, FileMode.OpenOrCreate, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete))
            {
            }
            File.SetLastWriteTimeUtc(marker, DateTime.UtcNow);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a read-only cache: the entry is used all the same, gc just cannot see it
        }
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }
    }
}
