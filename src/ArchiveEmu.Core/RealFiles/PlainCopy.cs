using System.Diagnostics;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.RealFiles;

/// <summary>
/// A virtual file written out as one real file by copying its bytes (beside <see cref="ArchiveClone"/>, which shares the
/// original's blocks instead). The mount's use: a merged archive's bytes in a file of their own, for FUSE passthrough: the kernel can only pass a file through
/// to a whole real file, and a merged archive sits at some offset inside a shared pack. The copy is read through
/// the merged source (so every chunk is hash-checked on the way, unless its extent was verified in this boot under
/// the pack's present identity: docs/DESIGN.md, "Integrity and concurrency"), lives in the cache folder (the filesystem the
/// user gave the cache room on), and has no name: it is unlinked as soon as it is created, so nothing can change
/// it and nothing is left behind, even after a crash.
/// </summary>
internal static class PlainCopy
{
    private const int Piece = 1 << 20;

    /// <summary>Writes <paramref name="file"/>'s bytes to an unnamed file in <paramref name="folder"/>; returns the open handle and the time it took.</summary>
    public static (SafeFileHandle Handle, TimeSpan Took) Write(VirtualFile file, string folder)
    {
        var clock = Stopwatch.StartNew();
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, $".serving-{Environment.ProcessId}-{Guid.NewGuid():N}.tmp");
        var handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.Read, FileOptions.None, file.Length);
        try
        {
            File.Delete(path); // from here on only this handle reaches it
            var buffer = new byte[(int)Math.Min(Piece, Math.Max(file.Length, 1))];
            for (long offset = 0; offset < file.Length;)
            {
                int count = file.Read(offset, buffer);
                if (count <= 0)
                    throw new IOException($"{path}: the archive ended at {offset} of {file.Length} bytes while being copied");
                RandomAccess.Write(handle, buffer.AsSpan(0, count), offset);
                offset += count;
            }
            return (handle, clock.Elapsed);
        }
        catch
        {
            handle.Dispose();
            if (File.Exists(path))
                File.Delete(path);
            throw;
        }
    }
}
