using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>
/// A format whose archive follows another archive that mods change, its leader (the ACB beside the streamed AWB it
/// describes, the IMG v1 <c>x.dir</c> beside its <c>x.img</c>), and is rebuilt from the leader's build: the format says which
/// files or entries beside a leader follow it, how their original is read and how they are built; routing attaches them.
/// </summary>
internal interface IFollowingFormat : IArchiveFormat
{
    /// <summary>Whether archives of <paramref name="leader"/>'s format may have followers of this format.</summary>
    bool CanFollow(IArchiveFormat leader);

    /// <summary>What following does, for reports: "its AWB header copy and hash rebuilt to match".</summary>
    string FollowsAs { get; }

    /// <summary>The rule reports name for a follower of <paramref name="leader"/> (a route path): "ACB follows sound/bgm.awb".</summary>
    string RuleFor(string leader);

    /// <summary>
    /// The files or entries beside <paramref name="leader"/> that follow it (one warning each for those that cannot); a
    /// leader that must have one and has none is an <see cref="ArchiveFormatException"/>.
    /// </summary>
    IReadOnlyList<Sibling> FollowersOf(Leader leader, List<string> warnings);

    /// <summary>
    /// Why a mod may not replace the follower <paramref name="follower"/> of <paramref name="leader"/> whole with
    /// <paramref name="replacement"/> (one line; routing refuses it), or null when the mod's file wins as a conflict.
    /// </summary>
    string? WhyNotReplacedWhole(string follower, string leader, string replacement);

    /// <summary>
    /// Why the follower at <paramref name="follower"/> cannot be rebuilt for <paramref name="leader"/> (it does not describe
    /// the leader's original, or cannot be rebuilt), and what is served instead (the end of one warning line), or null when it can.
    /// </summary>
    string? WhyNotFollowing(ArchiveSource follower, IFollowedRoute leader);

    /// <summary>The follower's original: its own (<paramref name="own"/>), or one read through its leader.</summary>
    ArchiveIndex ReadFollowerOriginal(Func<ArchiveIndex> own, IFollowedRoute leader);

    /// <summary>The emulated follower, built from its own original and changes and from those of its leader.</summary>
    EmulatedArchive BuildFollower(IFollowedRoute follower, IFollowedRoute leader, FileHandlePool? pool);
}

/// <summary>A leader as a following format looks around it: its route path, its own file when it is one, and what lies beside it.</summary>
/// <param name="RelativePath">The leader's route path ("sound/bgm.awb", "data/data.cpk/sound/bgm.awb").</param>
/// <param name="File">Full path of the leader's file when it is a whole game file; null for an entry of an archive.</param>
/// <param name="Siblings">The files (or entries) of its folder, listed only when asked for.</param>
/// <param name="Folder">That folder's route path with a trailing '/' (or ""), for messages.</param>
internal sealed record Leader(string RelativePath, string? File, IEnumerable<Sibling> Siblings, string Folder);

/// <summary>A file or entry beside a leader: its name in the folder, its bytes, its entry when the folder is inside an archive,
/// and why it cannot be rebuilt in place (stored compressed), or null.</summary>
internal sealed record Sibling(string Name, ArchiveSource Source, ArchiveEntry? Entry, string? Unusable = null);

/// <summary>A route as a following format builds from it (Routing's ArchiveRoute, which Formats does not know).</summary>
internal interface IFollowedRoute
{
    string RelativePath { get; }
    string GamePath { get; }

    /// <summary>Whether mods change it: entries or archives inside it.</summary>
    bool HasChanges { get; }

    ArchiveIndex ReadOriginal();

    /// <summary>Its emulated archive (the caller disposes it).</summary>
    EmulatedArchive Build(FileHandlePool? pool);

    /// <summary>Its original and patch, archives inside it built in, given to <paramref name="build"/>.</summary>
    EmulatedArchive BuildWith(FileHandlePool? pool, Func<ArchiveIndex, ArchivePatch, EmulatedArchive> build);
}
