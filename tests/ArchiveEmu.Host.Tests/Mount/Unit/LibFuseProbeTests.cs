using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

/// <summary>A missing FUSE skips a mount test on a developer's machine, and fails it where CI says mounting must work.</summary>
public sealed class LibFuseProbeTests
{
    [Test]
    public void Require_FuseMissingWhereItMustWork_FailsNamingTheReason()
    {
        var thrown = Assert.Throws<AssertionException>(() => LibFuseProbe.Require("/dev/fuse is missing", required: true));
        Assert.That(thrown!.Message, Does.Contain("/dev/fuse is missing").And.Contain("ARCHIVEEMU_REQUIRE_FUSE=1"));
    }

    [Test]
    public void Require_FuseMissingElsewhere_SkipsNamingTheReason()
    {
        var thrown = Assert.Throws<IgnoreException>(() => LibFuseProbe.Require("libfuse3.so.3 is not installed", required: false));
        Assert.That(thrown!.Message, Does.Contain("libfuse3.so.3 is not installed"));
    }

    [TestCase(true)]
    [TestCase(false)]
    public void Require_FusePresent_LetsTheTestRun(bool required) =>
        Assert.That(() => LibFuseProbe.Require(null, required), Throws.Nothing);
}
