using System.Diagnostics;
using ArchiveEmu.Core.Serving;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

internal sealed partial class ModdedGameFileSystem
{
    private readonly object _reloadLock = new();

    /// <summary>
    /// Re-resolves the mods and swaps in a new snapshot for new opens. Archives whose inputs changed are
    /// rebuilt now if they had been built (so the log shows each rebuild), the others carry over; open
    /// handles keep the version they opened. The kernel is told to forget what it cached for changed paths.
    /// A mod folder that no longer resolves is logged and the previous state stays. When <paramref name="changes"/>
    /// (a count of change events) moves while the mods are resolved, a writer was busy: the result may have
    /// caught a half-written file, so it is dropped and the next quiet moment reloads again.
    /// </summary>
    public void Reload(Func<long>? changes = null)
    {
        lock (_reloadLock)
        {
            var clock = Stopwatch.StartNew();
            long changesBefore = changes?.Invoke() ?? 0;
            var old = Current;
            MountSnapshot next;
            try
            {
                var game = old.Game.Reload();
                foreach (var warning in game.Plan.Warnings.Except(old.Game.Plan.Warnings)) // each new one, once
                    _logger.LogWarning("hot reload: {Message}", warning);
                foreach (var line in game.Plan.NotApplied.Select(n => n.Line).Except(old.Game.Plan.NotApplied.Select(n => n.Line))) // each new one, once
                    _logger.LogInformation("hot reload: not applied: {Line}", line);
                MergedTableLog.Write(_logger, game.Plan, old.Game.Plan, "hot reload: ");
                next = MountSnapshot.Create(game, old);
            }
            catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
            {
                _logger.LogError("hot reload failed, still serving the previous state: {Message}", e.Message);
                return;
            }

            if (changes is not null && changes() != changesBefore)
            {
                _logger.LogDebug("hot reload: mods changed again while resolving; waiting for them to settle");
                next.Dispose();
                return;
            }

            var (archives, files) = next.ChangesSince(old);
            var wasBuilt = archives.Where(p => old.Archives.GetValueOrDefault(p)?.IsBuilt == true).ToList();
            Volatile.Write(ref _snapshot, next);
            var sinceSwap = Stopwatch.StartNew();
            old.Dispose(); // open handles hold their own references

            if (archives.Count + files.Count == 0)
            {
                _logger.LogInformation("hot reload: mods changed, but no archive or file the mount serves did ({Ms:0} ms)", clock.Elapsed.TotalMilliseconds);
                return;
            }
            var changed = archives.Concat(files).ToList();
            InvalidateAll(changed); // at once: the kernel must not serve the old size or pages to new opens
            _logger.LogInformation("hot reload: {Archives} archive(s) and {Files} file(s) changed: {Paths}",
                archives.Count, files.Count, string.Join(", ", changed));
            foreach (var path in wasBuilt)
            {
                try
                {
                    if (next.Archives.TryGetValue(path, out var slot))
                        AcquireArchive(next, slot)?.Release(); // rebuilds now; logs "built …"
                }
                catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
                {
                    _logger.LogError("hot reload: rebuilding {Archive} failed (opens will get EIO until fixed): {Message}", path, e.Message);
                }
            }
            // A getattr that read the old snapshot just before the swap may have replied after the first
            // invalidation, leaving old attributes cached: invalidate once more when such replies are long done.
            var settle = TimeSpan.FromMilliseconds(100) - sinceSwap.Elapsed;
            if (settle > TimeSpan.Zero)
                Thread.Sleep(settle);
            InvalidateAll(changed);
            _logger.LogInformation("hot reload done in {Ms:0} ms", clock.Elapsed.TotalMilliseconds);
        }
    }

    private void InvalidateAll(IEnumerable<string> paths)
    {
        foreach (var path in paths)
            InvalidateEverySpelling(path);
    }
}
