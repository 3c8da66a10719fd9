using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving.Plans;

/// <summary>
/// Route plans kept in the cache folder (docs/DESIGN.md, "Route plans kept"), one file per <see cref="PlanKey"/> under
/// <c>plans/</c>: a build or mount whose mods and game files are as they were reads the plan back instead of walking every mod
/// and reading the CPKs' tables of contents again. A plan is derived data: a damaged or stale one is replaced, one that cannot be
/// written (a read-only cache folder) is only not kept; neither is ever an error.
/// </summary>
internal sealed class PlanStore(MergedFileCache cache, FileHandlePool? pool)
{

    /// <summary>How many plans are kept: a hot reload writes one per change, and a player switches between a few mod sets.</summary>
    internal const int Kept = 16;

    private string Folder => Path.Combine(cache.Folder, MergedFileCache.PlansFolderName);

    /// <summary>The plan kept under <paramref name="key"/> when every file it reads is as it was; null otherwise.</summary>
    public RoutePlan? Load(string key)
    {
        var path = PathOf(key);
        byte[] bytes;
        try
        {
            bytes = MergedFileCache.ReadSharingDelete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // none kept (or none readable): resolved as if there never was one
        }
        try
        {
            string? why = CacheEnvelope.Open(bytes, PlanFormat.Magic, PlanFormat.Version, out var payload, out _) switch
            {
                EnvelopeProblem.NotOne or EnvelopeProblem.OtherVersion => "not a route plan of this version",
                EnvelopeProblem.WrongLength => "truncated or padded",
                EnvelopeProblem.WrongChecksum => "checksum mismatch",
                _ => null,
            };
            if (why is not null)
                throw new InvalidDataException(why);
            if (PlanReader.Read(bytes.AsMemory()[payload], key, pool) is { } plan)
            {
                TryTouch(path); // the most recently used are kept
                return plan;
            }
            return null;
        }
        catch (InvalidDataException e)
        {
            cache.Warn($"{path}: kept route plan is damaged ({e.Message}); resolving the routes again");
            TryDelete(path);
            return null;
        }
    }

    /// <summary>Keeps <paramref name="plan"/> under <paramref name="key"/>; a plan that cannot be kept or a folder that takes no file keeps nothing.</summary>
    public void Store(string key, RoutePlan plan)
    {
        var path = PathOf(key);
        var temp = $"{path}.{Environment.ProcessId}.tmp";
        try
        {
            using (var buffer = new MemoryStream())
            {
                PlanWriter.Write(plan, key, buffer);
                var sealedPlan = CacheEnvelope.Seal(PlanFormat.Magic, PlanFormat.Version, buffer.GetBuffer().AsSpan(0, (int)buffer.Length));
                PrivateFiles.CreateFolder(cache.Folder); // the cache folder itself private too, when this makes it
                PrivateFiles.CreateFolder(Folder);
                using var stream = PrivateFiles.Open(temp, FileMode.Create, FileAccess.Write, FileShare.None);
                stream.Write(sealedPlan);
            }
            File.Move(temp, path, overwrite: true); // a reader sees the old plan or the new one, never half of one
            Trim();
        }
        catch (Exception e) when (e is PlanWriter.NotKept or IOException or UnauthorizedAccessException)
        {
            TryDelete(temp);
        }
    }

    private string PathOf(string key) => Path.Combine(Folder, key + ".plan");

    // All but the most recently used; a plan another process is reading is unlinked from under it, which it survives.
    private void Trim()
    {
        var plans = new DirectoryInfo(Folder).GetFiles("*.plan").OrderByDescending(f => f.LastWriteTimeUtc).Skip(Kept);
        foreach (var plan in plans)
            TryDelete(plan.FullName);
    }

    private static void TryTouch(string path)
    {
        try
        {
            File.SetLastWriteTimeUtc(path, DateTime.UtcNow);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // a read-only cache folder: the plan is used, only not marked as recently used
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
            // left for the next trim
        }
    }
}
