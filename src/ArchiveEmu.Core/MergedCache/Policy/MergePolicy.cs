using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>Whether an emulated archive is packed into the merged file cache (words: <see cref="PolicyWords"/>).</summary>
internal enum MergePolicy { Auto, Always, Never }

/// <summary>The limits of <see cref="MergePolicy.Auto"/>: merge small archives made of small injected files.</summary>
/// <param name="MaxArchiveBytes">Merge only an emulated archive smaller than this (32 MiB).</param>
/// <param name="MaxInjectedFileBytes">Merge only if every injected entry is smaller than this (1 MiB).</param>
internal sealed record MergeThresholds(long MaxArchiveBytes = 32L << 20, long MaxInjectedFileBytes = 1L << 20)
{
    public static MergeThresholds Default { get; } = new();
}

/// <summary>The policy's verdict for one archive, and why, in words a user reads.</summary>
internal sealed record MergeDecision(bool Merge, string Reason);

/// <summary>Applies a <see cref="MergePolicy"/> to one emulated archive.</summary>
internal static class MergeDecider
{
    public static MergeDecision Decide(MergePolicy policy, MergeThresholds thresholds, EmulatedArchive archive, StorageKind storage)
    {
        string where = $"storage {storage.Describe()}";
        if (policy == MergePolicy.Never)
            return new(false, $"emulate: merge policy {policy.Word()}");
        if (policy == MergePolicy.Always)
            return new(true, $"merge: merge policy {policy.Word()}; {where}");

        long size = archive.File.Length;
        long largest = LargestInjectedPiece(archive);
        if (size >= thresholds.MaxArchiveBytes)
            return new(false, $"emulate: archive is {Units.Bytes(size)}, not under {Units.Bytes(thresholds.MaxArchiveBytes)}; {where}");
        if (largest >= thresholds.MaxInjectedFileBytes)
            return new(false, $"emulate: an injected file is {Units.Bytes(largest)}, not under {Units.Bytes(thresholds.MaxInjectedFileBytes)}; {where}");
        string why = $"archive {Units.Bytes(size)} < {Units.Bytes(thresholds.MaxArchiveBytes)}, injected files ≤ {Units.Bytes(largest)} < {Units.Bytes(thresholds.MaxInjectedFileBytes)}";
        // The thresholds decide; the storage kind explains how much it matters (seeks cost most on a rotational disk).
        return new(true, storage.IsRotational == false
            ? $"merge: {why}; {where} (fewer reads still help, seeks cost little here)"
            : $"merge: {why}; {where}");
    }

    // The largest run read from a file other than the original: an injected entry's loose file, or one of the mod files of
    // an archive nested in an entry (whose original bytes are the outer's file). Segments, not entry sizes, so a nested
    // archive counts by the pieces it is read in, not as one injected file of its whole size.
    private static long LargestInjectedPiece(EmulatedArchive archive)
    {
        long largest = 0;
        foreach (var s in archive.File.Segments)
        {
            if (s.Source is FileSource f && f.Path != archive.Original.Path && s.Length > largest)
                largest = s.Length;
        }
        return largest;
    }
}
