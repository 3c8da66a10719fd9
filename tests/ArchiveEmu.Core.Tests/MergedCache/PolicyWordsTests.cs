using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>The merge policy and compression words, parsed once for the CLI and the host.</summary>
public sealed class PolicyWordsTests
{
    [Test]
    public void TheWords_AreTheOnesTheCliAndTheHostAccept_InTheirOrder()
    {
        Assert.That(PolicyWords.MergePolicies, Is.EqualTo(new[] { "auto", "always", "never" }));
        Assert.That(PolicyWords.Compressions, Is.EqualTo(new[] { "auto", "lz4", "none" }));
    }

    // The policy by name: MergePolicy is internal, and a public test method cannot take it.
    [TestCase("auto", nameof(MergePolicy.Auto))]
    [TestCase("always", nameof(MergePolicy.Always))]
    [TestCase("never", nameof(MergePolicy.Never))]
    public void MergePolicyOf_AWord_IsItsPolicy_AndBack(string word, string policyName)
    {
        var policy = Enum.Parse<MergePolicy>(policyName);
        Assert.That(PolicyWords.MergePolicyOf(word), Is.EqualTo(policy));
        Assert.That(policy.Word(), Is.EqualTo(word));
    }

    [TestCase("auto", CompressionChoice.Auto)]
    [TestCase("lz4", CompressionChoice.Lz4)]
    [TestCase("none", CompressionChoice.None)]
    public void CompressionOf_AWord_IsItsChoice_AndBack(string word, CompressionChoice choice)
    {
        Assert.That(PolicyWords.CompressionOf(word), Is.EqualTo(choice));
        Assert.That(choice.Word(), Is.EqualTo(word));
    }

    [TestCase(null)]
    [TestCase("")]
    [TestCase("Always")]
    [TestCase("sometimes")]
    [TestCase("lz4")]
    public void MergePolicyOf_AnythingElse_IsNull(string? word) => Assert.That(PolicyWords.MergePolicyOf(word), Is.Null);

    [TestCase(null)]
    [TestCase("LZ4")]
    [TestCase("raw")]
    [TestCase("never")]
    public void CompressionOf_AnythingElse_IsNull(string? word) => Assert.That(PolicyWords.CompressionOf(word), Is.Null);

    [Test]
    public void MergeDecisions_SpeakOfThePolicy_NotOfACommandLineFlag()
    {
        using var game = new CacheTestGame();
        using var archive = game.Game().Build(game.Game().Plan.FindArchive("data/tex.afs")!);
        var storage = StorageKind.Unknown;

        Assert.That(MergeDecider.Decide(MergePolicy.Never, MergeThresholds.Default, archive, storage).Reason, Is.EqualTo("emulate: merge policy never"));
        Assert.That(MergeDecider.Decide(MergePolicy.Always, MergeThresholds.Default, archive, storage).Reason, Does.StartWith("merge: merge policy always; storage "));
        Assert.That(CompressionDecision.Make(CompressionChoice.Lz4, game.CacheFolder).Reason, Is.EqualTo("lz4: compression lz4"));
        Assert.That(CompressionDecision.Make(CompressionChoice.None, game.CacheFolder).Reason, Is.EqualTo("raw: compression none"));
    }
}
