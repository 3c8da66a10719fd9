using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

/// <summary>The test-side passthrough probe reads kernel releases and .config text as the kernel writes them.</summary>
public sealed class KernelPassthroughProbeTests
{
    private const string Config = "#\n# File systems\n#\nCONFIG_FUSE_FS=y\n# CONFIG_CUSE is not set\nCONFIG_FUSE_PASSTHROUGH=y\nCONFIG_FUSE_IO_URING=y\n";

    [TestCase("6.18.44-fc-v669", 6, 18)]
    [TestCase("6.9.0", 6, 9)]
    [TestCase("6.10-rc3", 6, 10)]
    [TestCase("5.15.0-91-generic", 5, 15)]
    [TestCase("10.2.1+", 10, 2)]
    public void ParseRelease_TakesMajorAndMinor(string release, int major, int minor) =>
        Assert.That(KernelPassthroughProbe.ParseRelease(release), Is.EqualTo(new Version(major, minor)));

    [TestCase("")]
    [TestCase("linux")]
    [TestCase("6")]
    public void ParseRelease_NotAVersion_IsNull(string release) => Assert.That(KernelPassthroughProbe.ParseRelease(release), Is.Null);

    [Test]
    public void OptionValue_ReadsSetUnsetAndAbsentOptions()
    {
        Assert.That(KernelPassthroughProbe.OptionValue(Config, "CONFIG_FUSE_PASSTHROUGH"), Is.EqualTo("y"));
        Assert.That(KernelPassthroughProbe.OptionValue(Config, "CONFIG_FUSE"), Is.Null, "a prefix of another option is not that option");
        Assert.That(KernelPassthroughProbe.OptionValue(Config, "CONFIG_CUSE"), Is.Null, "# … is not set");
        Assert.That(KernelPassthroughProbe.OptionValue(Config, "CONFIG_VIRTIO_FS"), Is.Null, "absent");
        Assert.That(KernelPassthroughProbe.OptionValue("CONFIG_FUSE_FS=m\r\n", "CONFIG_FUSE_FS"), Is.EqualTo("m"));
    }

    [Test]
    public void Decide_RecentKernelWithTheOption_Offers() =>
        Assert.That(KernelPassthroughProbe.Decide("6.18.44", Config, "/proc/config.gz"),
            Is.EqualTo(new KernelPassthroughProbe.Answer(true, "Linux 6.18.44, CONFIG_FUSE_PASSTHROUGH=y in /proc/config.gz")));

    [TestCase("6.8.12", "CONFIG_FUSE_PASSTHROUGH=y\n")] // the option cannot mean passthrough before 6.9
    [TestCase("6.9.1", "CONFIG_FUSE_FS=y\n# CONFIG_FUSE_PASSTHROUGH is not set\n")]
    [TestCase("6.12.0", "CONFIG_FUSE_FS=m\n")]
    public void Decide_OldKernelOrOptionNotSet_DoesNotOffer(string release, string config) =>
        Assert.That(KernelPassthroughProbe.Decide(release, config, "/boot/config-x").Offered, Is.False);

    [Test]
    public void Decide_ConfigUnreadable_CannotTell_AndSaysWhy()
    {
        var answer = KernelPassthroughProbe.Decide("6.12.0", null, "neither /proc/config.gz nor /boot/config-6.12.0 could be read");
        Assert.That(answer.Offered, Is.Null);
        Assert.That(answer.Reason, Does.Contain("/proc/config.gz").And.Contain("/boot/config-6.12.0"));
        Assert.That(KernelPassthroughProbe.Decide("5.10.0", null, "unreadable").Offered, Is.False, "too old: no need to read the config");
    }

    [Test]
    public void Ask_ThisMachine_GivesAnAnswerWithAReason()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("LinuxOnly: reads /proc/sys/kernel/osrelease");
        var answer = KernelPassthroughProbe.Ask();
        TestContext.Progress.WriteLine($"FUSE passthrough: {answer.Offered?.ToString() ?? "cannot tell"} ({answer.Reason})");
        Assert.That(answer.Reason, Does.StartWith("Linux ").Or.Contain("release"));
    }
}
