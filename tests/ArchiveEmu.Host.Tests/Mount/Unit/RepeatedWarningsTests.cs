using ArchiveEmu.Host.Mount;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

public sealed class RepeatedWarningsTests
{
    [Test]
    public void TheSameText_IsLetThroughOncePerQuietPeriod_WithTheCountHeldBack()
    {
        var time = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var warnings = new RepeatedWarnings(TimeSpan.FromSeconds(10), () => time);

        Assert.That(warnings.ShouldLog("lookup a: changed", out int skipped), Is.True);
        Assert.That(skipped, Is.Zero);
        for (int i = 0; i < 5; i++)
            Assert.That(warnings.ShouldLog("lookup a: changed", out _), Is.False);
        Assert.That(warnings.ShouldLog("lookup b: changed", out _), Is.True, "another text is not held back");

        time = time.AddSeconds(10);
        Assert.That(warnings.ShouldLog("lookup a: changed", out skipped), Is.True);
        Assert.That(skipped, Is.EqualTo(5));
        Assert.That(warnings.ShouldLog("lookup a: changed", out _), Is.False);
    }
}
