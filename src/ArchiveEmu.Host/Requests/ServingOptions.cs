using System.Text.Json.Serialization;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;

namespace ArchiveEmu.Host.Requests;

/// <summary>
/// How a modded game is served, as asked: the options a profile saves (its <c>options</c> object: merge, compress, ignoreCase,
/// language, cache) and two a command line gives alone (<c>--no-cache</c>, <c>--verify-content</c>). Null: not asked; the layer
/// below decides (the profile under the command line, then the command's or the host's default). Words are checked where they
/// are read (System.CommandLine, ProfileStore, <see cref="MountOptions.Validate"/>).
/// </summary>
internal sealed record ServingOptions
{
    /// <summary>Which archives to pack into the merged file cache: a <see cref="Core.MergedCache.Policy.PolicyWords.MergePolicies"/> word.</summary>
    public required string? Merge { get; init; }

    /// <summary>How merged archives are stored: a <see cref="Core.MergedCache.Policy.PolicyWords.Compressions"/> word.</summary>
    public required string? Compress { get; init; }

    /// <summary>Whether a path is found whatever the letter case asked (Windows' rule, for games under Wine/Proton).</summary>
    public required bool? IgnoreCase { get; init; }

    /// <summary>The game's language as asked, a Localisation Framework id in any case; null: Steam's record, else en.</summary>
    public required string? Language { get; init; }

    /// <summary>The merged file cache folder; null: the per-user default.</summary>
    public required string? Cache { get; init; }

    /// <summary>Neither read nor store the cache (<c>--no-cache</c>): a command line's, never saved.</summary>
    [JsonIgnore]
    public bool NoCache { get; init; }

    /// <summary>Key the cache on a hash of every input (<c>--verify-content</c>): a command line's, never saved.</summary>
    [JsonIgnore]
    public bool VerifyContent { get; init; }

    /// <summary>The merge policy asked; auto when not asked (a word was checked where it was read).</summary>
    internal MergePolicy Policy => PolicyWords.MergePolicyOf(Merge) ?? MergePolicy.Auto;

    /// <summary>The codec asked for merged archives; auto when not asked.</summary>
    internal CompressionChoice CompressionChoice => PolicyWords.CompressionOf(Compress) ?? CompressionChoice.Auto;

    /// <summary>
    /// The one precedence table (docs/STEAM.md, "Profiles"): each option from <paramref name="over"/>, else from
    /// <paramref name="under"/>, else not asked. Two layers at a time: the command line over a profile, then (the mount) that
    /// over the host's settings. <c>--no-cache</c> turns the cache below off, as the host's NoCache setting does. <c>build</c>
    /// keeps its own merge and compress (<paramref name="storingFromUnder"/> false): a profile's are for <c>mount</c> and <c>run</c>.
    /// </summary>
    public static ServingOptions Choose(ServingOptions over, ServingOptions? under, bool storingFromUnder) => new()
    {
        Merge = over.Merge ?? (storingFromUnder ? under?.Merge : null),
        Compress = over.Compress ?? (storingFromUnder ? under?.Compress : null),
        IgnoreCase = over.IgnoreCase ?? under?.IgnoreCase,
        Language = over.Language ?? under?.Language,
        Cache = over.NoCache ? null : over.Cache ?? under?.Cache,
        NoCache = over.NoCache || under?.NoCache == true,
        VerifyContent = over.VerifyContent || under?.VerifyContent == true,
    };
}
