using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Core.RealFiles;

/// <summary>What a clone took: its length, the bytes shared with the original, written, and left as holes.</summary>
internal sealed record CloneResult(long Length, long Shared, long Written, long Holes);

/// <summary>The file system refused to share blocks; the message names the files and says why.</summary>
internal sealed class CloneRefusedException(string message) : IOException(message);

/// <summary>
/// Writes an emulated file's bytes as one real file sharing the original's blocks (a copy-on-write clone,
/// FICLONERANGE, on btrfs or XFS): the ranges <see cref="ClonePlan"/> finds are cloned, the rest (rebuilt tables, the
/// mods' bytes, the edges of moved runs) written, blocks of zeros left as holes. Either a named file (written under a
/// temporary name in its folder, synced, then renamed into place: a reader sees the old file or the whole new one) or a
/// file with no name beside the original, which the mount passes through to the kernel (docs/DESIGN.md, "Clones").
/// </summary>
[SupportedOSPlatform("linux")]
internal static class ArchiveClone
{
    private const int Chunk = 1 << 20;

    /// <summary>
    /// Writes <paramref name="file"/> to <paramref name="destination"/> sharing what it can with <paramref name="original"/>
    /// (the path its segments name). Throws <see cref="CloneRefusedException"/> when the file system cannot share blocks,
    /// an IOException naming the file for any other failure; either way no temporary file is left.
    /// </summary>
    public static CloneResult Write(VirtualFile file, string original, string destination)
    {
        string folder = Path.GetDirectoryName(Path.GetFullPath(destination))!;
        string temporary = Path.Combine(folder, $".{Path.GetFileName(destination)}.{Environment.ProcessId}.tmp");
        try
        {
            CloneResult result;
            using (var target = File.OpenHandle(temporary, FileMode.CreateNew, FileAccess.Write))
            {
                result = Fill(file, original, ClonePlan.Of(file, original), target, destination);
                if (LibC.Fsync((int)target.DangerousGetHandle()) != 0)
                    throw new IOException($"{destination}: writing the clone to disk failed ({Marshal.GetLastPInvokeErrorMessage()})");
            }
            File.Move(temporary, destination, overwrite: true);
            DirectorySync.Flush(folder);
            return result;
        }
        catch
        {
            File.Delete(temporary);
            throw;
        }
    }

    /// <summary>
    /// The clone as a file with no name (O_TMPFILE) beside <paramref name="original"/>: nothing can open or change it, and
    /// it is gone with its last handle, even after a crash. Refused (<see cref="CloneRefusedException"/>) where the file
    /// system can hold no such file or share no blocks. <paramref name="plan"/> is <see cref="ClonePlan.Of"/> of the two,
    /// which the caller has already worked out to decide whether a clone is worth it.
    /// </summary>
    public static (SafeFileHandle Handle, CloneResult Result) WriteUnnamed(VirtualFile file, string original, List<CloneRange> plan)
    {
        string folder = Path.GetDirectoryName(original)!;
        int fd = LibC.Open(folder, LibC.O_TMPFILE | LibC.O_RDWR | LibC.O_CLOEXEC, 0x180); // 0600
        if (fd < 0)
        {
            int errno = Marshal.GetLastPInvokeError();
            string reason = Marshal.GetPInvokeErrorMessage(errno);
            throw errno is LibC.EOPNOTSUPP or LibC.EISDIR or LibC.EINVAL
                ? new CloneRefusedException($"{folder}: the file system cannot hold a file with no name (O_TMPFILE: {reason})")
                : new IOException($"{folder}: cannot make a file with no name for the clone of {Path.GetFileName(original)} ({reason})");
        }
        var target = new SafeFileHandle(fd, ownsHandle: true);
        try
        {
            return (target, Fill(file, original, plan, target, $"the clone of {original}"));
        }
        catch
        {
            target.Dispose();
            throw;
        }
    }

    private static CloneResult Fill(VirtualFile file, string original, List<CloneRange> plan, SafeFileHandle target, string destination)
    {
        using var source = File.OpenHandle(original);
        RandomAccess.SetLength(target, file.Length);
        foreach (var range in plan)
            Clone(source, target, range, original, destination);
        var (written, holes) = WriteTheRest(file, target, plan);
        return new CloneResult(file.Length, plan.Sum(r => r.Length), written, holes);
    }

    private static void Clone(SafeFileHandle source, SafeFileHandle target, CloneRange range, string original, string destination)
    {
        var request = new LibC.FileCloneRange
        {
            SourceFd = source.DangerousGetHandle(), SourceOffset = (ulong)range.SourceOffset,
            SourceLength = (ulong)range.Length, DestinationOffset = (ulong)range.Offset,
        };
        unsafe
        {
            if (LibC.Ioctl((int)target.DangerousGetHandle(), LibC.FICLONERANGE, &request) == 0)
                return;
        }
        int errno = Marshal.GetLastPInvokeError();
        string reason = Marshal.GetPInvokeErrorMessage(errno);
        throw errno switch
        {
            LibC.EXDEV => new CloneRefusedException($"{destination}: cannot share blocks with {original}: they are on different file systems"),
            LibC.EOPNOTSUPP or LibC.ENOTTY or LibC.EINVAL => new CloneRefusedException(
                $"{destination}: the file system cannot share blocks with {original} (no reflink: {reason}); btrfs and XFS can"),
            _ => new IOException($"{destination}: sharing [{range.SourceOffset}, {range.SourceOffset + range.Length}) of {original} failed ({reason})"),
        };
    }

    /// <summary>Writes every byte outside the cloned ranges, skipping whole blocks of zeros (the file was sized with holes).</summary>
    private static (long Written, long Holes) WriteTheRest(VirtualFile file, SafeFileHandle target, List<CloneRange> plan)
    {
        var buffer = GC.AllocateUninitializedArray<byte>(Chunk, pinned: true);
        long written = 0, holes = 0;
        foreach (var gap in Gaps(file.Length, plan))
        {
            for (long at = gap.Start; at < gap.End;)
            {
                var chunk = buffer.AsSpan(0, (int)Math.Min(Chunk, gap.End - at));
                file.ReadExactly(at, chunk);
                for (int block = 0; block < chunk.Length;)
                {
                    int end = BlockEnd(chunk, block);
                    if (HoldsData(chunk, block))
                    {
                        while (end < chunk.Length && HoldsData(chunk, end)) // a run of blocks holding data, written in one call
                            end = BlockEnd(chunk, end);
                        RandomAccess.Write(target, chunk[block..end], at + block);
                        written += end - block;
                    }
                    else
                        holes += end - block;
                    block = end;
                }
                at += chunk.Length;
            }
        }
        return (written, holes);
    }

    private static int BlockEnd(ReadOnlySpan<byte> chunk, int block) => (int)Math.Min(block + ClonePlan.Block, chunk.Length);

    private static bool HoldsData(ReadOnlySpan<byte> chunk, int block) => chunk[block..BlockEnd(chunk, block)].ContainsAnyExcept((byte)0);

    private static IEnumerable<(long Start, long End)> Gaps(long length, List<CloneRange> plan)
    {
        long at = 0;
        foreach (var range in plan)
        {
            if (range.Offset > at)
                yield return (at, range.Offset);
            at = range.Offset + range.Length;
        }
        if (at < length)
            yield return (at, length);
    }
}
