using ArchiveEmu.Core.Formats.Awb;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// The ACB follows each streamed AWB that mods change (docs/DESIGN.md, "ACB follows its AWB"), in the game folder and inside
/// archives alike (an AWB that is an entry of a CPK pulls along the ACB entry beside it): the ACB named like the AWB (letter
/// case aside), else the ACBs of the same folder whose StreamAwbHash names it (<see cref="AcbSiblings"/>), rebuilt with the
/// emulated AWB's header copy and hash, unless a mod replaces the ACB whole (the mod's file wins; reported as a conflict). An
/// ACB that cannot follow (damaged, masked, naming no such AWB, stored compressed in its archive) is one warning, and the
/// AWB is served all the same.
/// </summary>
internal sealed partial class AcbFormat : IFollowingFormat
{
    public bool CanFollow(IArchiveFormat leader) => leader == AwbFormat.Instance;

    public string FollowsAs => "its AWB header copy and hash rebuilt to match";

    public string RuleFor(string leader) => $"ACB follows {leader}";

    public IReadOnlyList<Sibling> FollowersOf(Leader leader, List<string> warnings) =>
        AcbSiblings.Of(leader.RelativePath, leader.Siblings, leader.Folder, warnings);

    public string? WhyNotReplacedWhole(string follower, string leader, string replacement) => null; // the mod's ACB wins

    /// <summary>An ACB that keeps no streamed AWB header does not describe the AWB.</summary>
    public string? WhyNotFollowing(ArchiveSource follower, string leader) =>
        WhyNotRebuilt(follower, leader) is { } why ? why + "; the AWB is served emulated, the ACB as it is" : null;

    private static string? WhyNotRebuilt(ArchiveSource follower, string leader)
    {
        try
        {
            var acb = AcbFile.Read(follower);
            if (acb.StreamAwbHeader is null)
                return "it keeps no streamed AWB header (StreamAwbAfs2Header), so it does not describe the AWB";
            if (acb.Masked)
                return "its Header table is XOR-masked, which ArchiveEmu reads but does not rebuild";
            acb.StreamAwbRow(Path.GetFileNameWithoutExtension(leader));
            return null;
        }
        catch (ArchiveFormatException e)
        {
            return e.Message;
        }
    }

    public ArchiveIndex ReadFollowerOriginal(Func<ArchiveIndex> own, IFollowedRoute leader) => own();

    public EmulatedArchive BuildFollower(IFollowedRoute follower, IFollowedRoute leader, FileHandlePool? pool) =>
        follower.BuildWith(pool, (original, patch) =>
        {
            using var awb = leader.Build(pool); // built again, not shared with the AWB's own serving: O(entries), and the ACB reads it once for the hash
            return BuildFollowing(original, patch, awb.File, Path.GetFileNameWithoutExtension(leader.RelativePath), pool);
        });
}
