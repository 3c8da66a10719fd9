namespace ArchiveEmu.Core.MergedCache;

/// <summary>
/// The one-writer-at-a-time lock of a cache folder: an exclusive open of its <c>lock</c> file (an
/// advisory flock on Linux, released by the kernel if the holder dies, so a kill -9 never leaves it held).
/// Readers never take it.
/// </summary>
internal sealed class CacheWriterLock : IDisposable
{
    private readonly FileStream _file;

    private CacheWriterLock(FileStream file) => _file = file;

    /// <summary>Waits up to <paramref name="timeout"/> for the lock; null if another writer still holds it.</summary>
    public static CacheWriterLock? TryAcquire(string folder, TimeSpan timeout)
    {
        var path = Path.Combine(folder, "lock");
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            try
            {
                return new CacheWriterLock(PrivateFiles.Open(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None));
            }
            catch (IOException) when (DateTime.UtcNow < deadline)
            {
                Thread.Sleep(50);
            }
            catch (IOException) when (File.Exists(path))
            {
                return null; // held by another process past the deadline
            }
        }
    }

    public static CacheWriterLock Acquire(string folder, TimeSpan timeout) =>
        TryAcquire(folder, timeout) ?? throw new IOException(
            $"{Path.Combine(folder, "lock")}: the cache is being written by another archiveemu process (waited {timeout.TotalSeconds:0} s)");

    public void Dispose() => _file.Dispose();
}
