using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving;

/// <summary>How an archive's bytes reach a reader.</summary>
internal enum ServedAs
{
    /// <summary>Emulated: the rebuilt header plus slices of the original and the loose files.</summary>
    Emulated,

    /// <summary>Merged: one contiguous extent of the merged file cache.</summary>
    Merged,
}

/// <summary>Where the emulated archive came from.</summary>
internal enum LayoutOrigin
{
    /// <summary>Not needed: the archive was served merged and nobody asked for its entries.</summary>
    None,

    /// <summary>The original was parsed and the patch applied.</summary>
    Parsed,

    /// <summary>The cache's stored layout (no parse of the original).</summary>
    Cache,

    /// <summary>The caller's own (<see cref="ServeRequest.Kept"/>).</summary>
    Kept,
}

/// <summary>What serving did to the merged file cache.</summary>
internal enum CacheOutcome
{
    /// <summary>No cache.</summary>
    Off,

    /// <summary>The cache held nothing for this archive, and nothing was written.</summary>
    Miss,

    /// <summary>The cache held what was needed; nothing was written.</summary>
    Hit,

    /// <summary>A layout, or a layout and merged bytes, were written.</summary>
    Stored,

    /// <summary>The cache's file system was full: nothing was written, and the archive is served by emulation.</summary>
    Full,
}

/// <summary>An emulated archive's sizes and entry counts, and where its bytes come from.</summary>
internal sealed record ArchiveSummary(string Format, long OriginalSize, long Size, int Entries, int Replaced, int Added, int Deleted,
    long BytesFromOriginal, long BytesFromLooseFiles, long BytesGenerated)
{
    public static ArchiveSummary Of(EmulatedArchive archive) => new(archive.Original.Format.Name, archive.Original.Identity.Length,
        archive.File.Length, archive.Entries.Count - archive.Count(EntryState.Deleted), archive.Count(EntryState.Replaced),
        archive.Count(EntryState.Added), archive.Count(EntryState.Deleted), archive.BytesFromOriginal, archive.BytesFromLooseFiles,
        archive.BytesGenerated);
}

/// <summary>
/// One archive as <see cref="ArchiveServer.Serve"/> served it: how, why and at what cost, plus what the request asked for.
/// The caller disposes <see cref="File"/> and <see cref="Archive"/>; they are independent of each other.
/// </summary>
internal sealed record ServedArchive(ArchiveRoute Route, ServedAs How, string Reason, LayoutOrigin Layout, MergeDecision? Decision,
    CacheOutcome Cache, MergedExtent? Merged, ArchiveSummary? Summary, TimeSpan BuildTime, TimeSpan StoreTime)
{
    /// <summary>The bytes a reader sees, when <see cref="ServeRequest.OpenFile"/> asked for them.</summary>
    public VirtualFile? File { get; init; }

    /// <summary>The emulated archive, when <see cref="ServeRequest.KeepArchive"/> asked for it.</summary>
    public EmulatedArchive? Archive { get; init; }

    /// <summary>
    /// What the mods made of the archive that looks like a mistake (<see cref="FarIndexWarning"/>, <see cref="CaseTwinWarning"/>),
    /// when <see cref="ServeRequest.Describe"/> asked; else none.
    /// </summary>
    public IReadOnlyList<string> Warnings { get; init; } = [];

    /// <summary>The <see cref="Warnings"/> of <paramref name="route"/> served as <paramref name="summary"/> describes it.</summary>
    public static IReadOnlyList<string> WarningsOf(ArchiveRoute route, ArchiveSummary summary) =>
        FarIndexWarning.Of(route, summary) is { } farIndex ? [farIndex, .. CaseTwinWarning.Of(route)] : [.. CaseTwinWarning.Of(route)];
}
