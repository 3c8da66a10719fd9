using ArchiveEmu.Core.Interop;
namespace ArchiveEmu.Core.MergedCache.Folder;

/// <summary>
/// The one-writer-at-a-time lock of a cache folder: an exclusive open of its <c>lock</c> file (an
/// advisory flock on Linux, released by the kernel if the holder dies, so a kill -9 never leaves it held).
/// Readers never take it. Only a lock another process holds is waited for; any other failure (a read-only
/// or missing folder, no permission) is thrown at once, naming the folder. Writers of one process (a mount building two
/// archives at once on two threads) queue on an in-process gate first: the file lock is per open, so two opens of one
/// process would otherwise wait on each other as if on another process, and say so.
/// </summary>
internal sealed class CacheWriterLock : IDisposable
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, SemaphoreSlim> s_inProcess = new(StringComparer.Ordinal);

    private readonly FileStream _file;
    private readonly SemaphoreSlim _gate;

    private CacheWriterLock(FileStream file, SemaphoreSlim gate) => (_file, _gate) = (file, gate);

    /// <summary>
    /// Waits up to <paramref name="timeout"/> for the lock, telling <paramref name="waiting"/> once when a wait starts;
    /// null if another writer still holds it.
    /// </summary>
    public static CacheWriterLock? TryAcquire(string folder, TimeSpan timeout, Action<string>? waiting = null)
    {
        var path = Path.Combine(folder, "lock");
        var deadline = DateTime.UtcNow + timeout;
        var gate = s_inProcess.GetOrAdd(Path.GetFullPath(path), _ => new SemaphoreSlim(1, 1));
        if (!gate.Wait(timeout))
            return null;
        bool told = false;
        while (true)
        {
            try
            {
                return new CacheWriterLock(PrivateFiles.Open(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None), gate);
            }
            catch (IOException e) when (IsHeldByAnother(e))
            {
                if (DateTime.UtcNow >= deadline)
                {
                    gate.Release();
                    return null;
                }
                if (!told)
                    waiting?.Invoke($"{path}: another archiveemu process is writing this cache; waiting up to {timeout.TotalSeconds:0} s for it to finish");
                told = true;
                Thread.Sleep(50);
            }
            catch (Exception e) when (CacheFolderAccess.Problem(e) is { } problem)
            {
                gate.Release();
                throw new IOException($"{Path.GetFullPath(folder)}: the cache folder {problem}; nothing can be stored in it", e);
            }
            catch
            {
                gate.Release();
                throw;
            }
        }
    }

    public static CacheWriterLock Acquire(string folder, TimeSpan timeout, Action<string>? waiting = null) =>
        TryAcquire(folder, timeout, waiting) ?? throw new IOException(
            $"{Path.Combine(folder, "lock")}: the cache is being written by another archiveemu process (waited {timeout.TotalSeconds:0} s)");

    // Linux and macOS: flock's EWOULDBLOCK as the IOException's HResult; Windows: ERROR_SHARING_VIOLATION or ERROR_LOCK_VIOLATION.
    private static bool IsHeldByAnother(IOException e) => OperatingSystem.IsWindows()
        ? (e.HResult & 0xFFFF) is 32 or 33
        : e.HResult == (OperatingSystem.IsMacOS() ? 35 : 11);

    private int _disposed;

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _file.Dispose();
        _gate.Release();
    }
}
