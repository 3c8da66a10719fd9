using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Reliability;

/// <summary>A machine that lacks what a test needs skips it on a developer's machine and fails it on CI's (ARCHIVEEMU_CI=1).</summary>
public sealed class CiMachineTests
{
    [Test]
    public void Require_MissingOnCi_FailsNamingTheReason()
    {
        var thrown = Assert.Throws<AssertionException>(() => CiMachine.Require("no /proc/kpageflags", onCi: true));
        Assert.That(thrown!.Message, Does.Contain("no /proc/kpageflags").And.Contain("ARCHIVEEMU_CI=1"));
    }

    [Test]
    public void Require_MissingElsewhere_SkipsNamingTheReason()
    {
        var thrown = Assert.Throws<IgnoreException>(() => CiMachine.Require("no /proc/kpageflags", onCi: false));
        Assert.That(thrown!.Message, Does.Contain("no /proc/kpageflags"));
    }

    [TestCase(true)]
    [TestCase(false)]
    public void Require_NothingMissing_LetsTheTestRun(bool onCi) => Assert.That(() => CiMachine.Require(null, onCi), Throws.Nothing);
}
