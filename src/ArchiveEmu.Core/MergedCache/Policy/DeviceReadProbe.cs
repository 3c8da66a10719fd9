using System.Diagnostics;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>
/// The sequential read speed of the device under a folder: a 32 MiB file written there, flushed, its pages dropped
/// (posix_fadvise DONTNEED), then read in 1 MiB blocks for at most 100 ms. A page cache that cannot be bypassed
/// (tmpfs) reads at memory speed, which is what a reader there gets too.
/// </summary>
internal static class DeviceReadProbe
{
    private const int FileBytes = 32 << 20, BlockBytes = 1 << 20;
    private static readonly TimeSpan Budget = TimeSpan.FromMilliseconds(100);

    /// <summary>MB/s (10^6 bytes a second); throws an IOException (or PlatformNotSupportedException off Linux) when it cannot tell.</summary>
    public static double Measure(string folder)
    {
        if (!OperatingSystem.IsLinux())
            throw new PlatformNotSupportedException("reading past the page cache needs Linux's posix_fadvise");
        PrivateFiles.CreateFolder(folder);
        var options = new FileStreamOptions
        {
            Mode = FileMode.CreateNew, Access = FileAccess.ReadWrite, Options = FileOptions.DeleteOnClose, BufferSize = 0,
            UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite,
        };
        using var stream = new FileStream(Path.Combine(folder, $".archiveemu-speed-probe-{Environment.ProcessId}"), options);
        var block = new byte[BlockBytes];
        for (int written = 0; written < FileBytes; written += BlockBytes)
        {
            Random.Shared.NextBytes(block); // incompressible: a compressing filesystem would otherwise read less
            stream.Write(block);
        }
        stream.Flush(flushToDisk: true); // DONTNEED drops clean pages only
        var handle = stream.SafeFileHandle;
        int error = LibC.PosixFadvise((int)handle.DangerousGetHandle(), 0, 0, LibC.POSIX_FADV_DONTNEED);
        if (error != 0)
            throw new IOException($"posix_fadvise(DONTNEED) failed (errno {error})");
        var clock = Stopwatch.StartNew();
        long read = 0;
        while (read < FileBytes && (read == 0 || clock.Elapsed < Budget))
        {
            int n = RandomAccess.Read(handle, block, read);
            if (n == 0)
                break;
            read += n;
        }
        return read / 1e6 / clock.Elapsed.TotalSeconds;
    }
}
