namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Watches mod folders (recursively) and calls back once things have been quiet for <c>debounce</c>: an
/// editor's save or a copy of many files is one reload, not dozens.
/// </summary>
internal sealed class ModFolderWatcher : IDisposable
{
    private readonly List<FileSystemWatcher> _watchers = new();
    private readonly Timer _timer;
    private readonly TimeSpan _debounce;

    public ModFolderWatcher(IEnumerable<string> folders, TimeSpan debounce, Action changed, Action<string> error)
    {
        _debounce = debounce;
        _timer = new Timer(_ => changed(), null, Timeout.Infinite, Timeout.Infinite);
        foreach (var folder in folders)
        {
            var watcher = new FileSystemWatcher(folder)
            {
                IncludeSubdirectories = true,
                NotifyFilter = NotifyFilters.FileName | NotifyFilters.DirectoryName | NotifyFilters.LastWrite | NotifyFilters.Size,
                InternalBufferSize = 64 * 1024,
            };
            watcher.Changed += (_, _) => Poke();
            watcher.Created += (_, _) => Poke();
            watcher.Deleted += (_, _) => Poke();
            watcher.Renamed += (_, _) => Poke();
            watcher.Error += (_, e) =>
            {
                error($"{folder}: watching for changes failed ({e.GetException().Message}); reloading everything");
                Poke();
            };
            watcher.EnableRaisingEvents = true;
            _watchers.Add(watcher);
        }
    }

    private long _changes;

    /// <summary>How many change events have arrived so far: a reload that saw it move was racing a writer.</summary>
    public long Changes => Interlocked.Read(ref _changes);

    private void Poke()
    {
        Interlocked.Increment(ref _changes);
        _timer.Change(_debounce, Timeout.InfiniteTimeSpan);
    }

    public void Dispose()
    {
        foreach (var watcher in _watchers)
            watcher.Dispose();
        _timer.Dispose();
    }
}
