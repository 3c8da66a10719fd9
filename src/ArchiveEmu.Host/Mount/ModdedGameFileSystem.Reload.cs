using System.Diagnostics;
using ArchiveEmu.Core.Routing;
using Microsoft.Extensions.Logging;

namespace ArchiveEmu.Host.Mount;

internal sealed partial class ModdedGameFileSystem
{
    private readonly object _reloadLock = new();

    /// <summary>
    /// Re-resolves the mods and swaps in a new snapshot for new opens. Archives whose inputs changed are
    /// rebuilt now if they had been built (so the log shows each rebuild), the others carry over; open
    /// handles keep the version they opened. The kernel is told to forget what it cached for changed paths.
    /// A mod folder that no longer resolves is logged and the previous state stays.
    /// </summary>
    public void Reload()
    {
        lock (_reloadLock)
        {
            var clock = Stopwatch.StartNew();
            var old = Current;
            MountSnapshot next;
            try
            {
                var plan = new ModRouter(_gameFolder, old.Game.Plan.Mods).Resolve();
                next = MountSnapshot.Create(new EmulatedGame(plan, _pool) { Cache = old.Game.Cache, VerifyContent = old.Game.VerifyContent }, old);
            }
            catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
            {
                _logger.LogError("hot reload failed, still serving the previous state: {Message}", e.Message);
                return;
            }

            var (archives, files) = next.ChangesSince(old);
            var wasBuilt = archives.Where(p => old.Archives.GetValueOrDefault(p)?.IsBuilt == true).ToList();
            Volatile.Write(ref _snapshot, next);
            old.Dispose(); // open handles hold their own references

            if (archives.Count + files.Count == 0)
            {
                _logger.LogInformation("hot reload: mods changed, but no archive or file the mount serves did ({Ms:0} ms)", clock.Elapsed.TotalMilliseconds);
                return;
            }
            _logger.LogInformation("hot reload: {Archives} archive(s) and {Files} file(s) changed: {Paths}",
                archives.Count, files.Count, string.Join(", ", archives.Concat(files)));
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
            foreach (var path in archives.Concat(files))
                Invalidate?.Invoke(path);
            _logger.LogInformation("hot reload done in {Ms:0} ms", clock.Elapsed.TotalMilliseconds);
        }
    }
}
