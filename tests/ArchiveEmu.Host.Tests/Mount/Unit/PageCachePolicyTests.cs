using ArchiveEmu.Host.Mount;
using ArchiveEmu.Host.Tests.Fuse;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

public sealed class PageCachePolicyTests
{
    [Test]
    public void Opened_SameVersionAgain_KeepsTheCache()
    {
        var policy = new PageCachePolicy();
        var v1 = new TestVersion("v1");
        Assert.That(policy.Opened("a", v1), Is.EqualTo((false, false, false)), "first open: nothing cached worth keeping");
        policy.Closed("a", v1);
        Assert.That(policy.Opened("a", v1), Is.EqualTo((true, false, false)));
    }

    [Test]
    public void Opened_NewVersionAfterOldClosed_DropsTheCache()
    {
        var policy = new PageCachePolicy();
        var (v1, v2) = (new TestVersion("v1"), new TestVersion("v2"));
        policy.Opened("a", v1);
        policy.Closed("a", v1);
        Assert.That(policy.Opened("a", v2), Is.EqualTo((false, false, true)));
    }

    [Test]
    public void Opened_NewVersionWhileOldIsOpen_BypassesTheCache_UntilTheOldCloses()
    {
        var policy = new PageCachePolicy();
        var (v1, v2) = (new TestVersion("v1"), new TestVersion("v2"));
        policy.Opened("a", v1);
        Assert.That(policy.Opened("a", v2), Is.EqualTo((false, true, false)));
        policy.Closed("a", v1);
        policy.Closed("a", v2);
        Assert.That(policy.Opened("a", v2), Is.EqualTo((false, false, true)), "v2 never filled the cache (direct_io), so drop what v1 left");
        Assert.That(policy.Opened("b", v2), Is.EqualTo((false, false, false)), "paths are independent");
    }
}
