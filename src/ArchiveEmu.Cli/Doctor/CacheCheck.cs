using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Folder;

namespace ArchiveEmu.Cli.Doctor;

/// <summary>The cache folder: takes a new file (<see cref="CacheFolderAccess.WhyNotWritable"/>, as build asks), how much it holds, and the free space beside it.</summary>
internal static class CacheCheck
{
    private const string Name = "cache folder";

    /// <param name="folder">The folder --cache names, or null for the default folder.</param>
    /// <param name="off">Whether --no-cache was given: nothing is read or stored.</param>
    public static DoctorCheck Run(string? folder, bool off)
    {
        if (off)
            return DoctorCheck.Fact(Name, "--no-cache: layouts are worked out again at every start, nothing is stored");
        var full = Path.GetFullPath(folder ?? MergedFileCache.DefaultFolder());
        if (CacheFolderAccess.WhyNotWritable(full) is { } problem)
            return DoctorCheck.Failed(Name, $"{full}: the cache folder {problem}",
                "give a writable folder with --cache DIR, or mount with --no-cache (slower starts)");
        var (used, free) = new MergedFileCache(full).DiskUse(); // as cache ls counts them
        var holds = Directory.Exists(full) ? $"holds {Units.Bytes(used)}" : "not made yet (the first mount or build makes it)";
        return DoctorCheck.Passed(Name, $"{full}: writable, {holds}, {(free is { } bytes ? Units.Bytes(bytes) : "unknown")} free on its disk");
    }
}
