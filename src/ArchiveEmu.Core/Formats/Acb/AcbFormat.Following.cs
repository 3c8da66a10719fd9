using System.Buffers.Binary;
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

    /// <summary>
    /// An ACB follows an AWB only when it describes it: its header copy (the row named like the AWB, or the only one) equals
    /// the AWB's original header, from "AFS2" to the end of its id and position table. FileEmulationFramework's rule
    /// (AcbPatcherEmulator injects only when the hash of the ACB's copy matches the hash of the original AWB's header): an ACB
    /// named like an AWB it does not describe (FEF's own test assets: arg.acb describes a 2-entry AWB, beside a 5-entry one)
    /// is served as it is.
    /// </summary>
    public string? WhyNotFollowing(ArchiveSource follower, IFollowedRoute leader) =>
        WhyNotRebuilt(follower, leader) is { } why ? why + "; the AWB is served emulated, the ACB as it is" : null;

    private static string? WhyNotRebuilt(ArchiveSource follower, IFollowedRoute leader)
    {
        try
        {
            var acb = AcbFile.Read(follower);
            if (acb.StreamAwbHeader is null)
                return "it keeps no streamed AWB header (StreamAwbAfs2Header), so it does not describe the AWB";
            if (acb.Masked)
                return "its Header table is XOR-masked, which ArchiveEmu reads but does not rebuild";
            var copy = acb.StreamAwbHeader.Values[acb.StreamAwbRow(Path.GetFileNameWithoutExtension(leader.RelativePath))];
            return DescribesOriginal(copy, leader.ReadOriginal().Source);
        }
        catch (ArchiveFormatException e)
        {
            return e.Message;
        }
    }

    // Null when the header copy equals the AWB's original header table; else what differs, for the warning.
    private static string? DescribesOriginal(byte[] copy, ArchiveSource awb)
    {
        var copied = copy.AsSpan(0, (int)AcbFile.CopiedTableEnd(copy)); // the copy was checked whole when the ACB was read
        using var reader = ArchiveFileReader.Open(awb);
        var head = reader.ReadBytes(0, Math.Min(reader.Length, AwbHeader.Size), "AWB header");
        long end = head.Length == AwbHeader.Size ? AcbFile.CopiedTableEnd(head) : -1;
        if (end == copied.Length && end <= reader.Length && reader.ReadBytes(0, end, "AWB header").AsSpan().SequenceEqual(copied))
            return null;
        string original = end < 0 || end > reader.Length ? "" : $" ({end} bytes, {Count(head)} entries)";
        return $"its AWB header copy ({copied.Length} bytes, {Count(copied)} entries) is not the AWB's original header{original}, "
            + "so it describes another AWB (FileEmulationFramework leaves it too)";
    }

    private static uint Count(ReadOnlySpan<byte> header) => BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);

    public ArchiveIndex ReadFollowerOriginal(Func<ArchiveIndex> own, IFollowedRoute leader) => own();

    public EmulatedArchive BuildFollower(IFollowedRoute follower, IFollowedRoute leader, FileHandlePool? pool) =>
        follower.BuildWith(pool, (original, patch) =>
        {
            using var awb = leader.Build(pool); // built again, not shared with the AWB's own serving: O(entries), and the ACB reads it once for the hash
            return BuildFollowing(original, patch, awb.File, Path.GetFileNameWithoutExtension(leader.RelativePath), pool);
        });
}
