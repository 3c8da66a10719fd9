using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// <c>--compress auto</c> on injected figures (never this noisy disk): LZ4 where reading fewer bytes saves more than
/// decoding costs, raw elsewhere, raw with the reason said when the device cannot be measured, and one probe per device.
/// </summary>
public sealed class CompressionDecisionTests
{
    private static readonly Lz4Speed Decode2500 = new(DecodeMbps: 2500, Ratio: 0.6);
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("compress-auto");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static CodecProbes Probes(double deviceMbps, Action? probed = null) => new()
    {
        ReadMbps = _ => { probed?.Invoke(); return deviceMbps; },
        Lz4 = () => Decode2500,
    };

    [Test]
    public void Auto_OnASlowDevice_ChoosesLz4()
    {
        var decision = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(100));
        Assert.That(decision.Compression, Is.EqualTo(ChunkCompression.Lz4));
        Assert.That(decision.Reason, Is.EqualTo("cache device reads 100 MB/s, LZ4 decodes 2,500 MB/s at 60% stored: lz4"));
    }

    [Test]
    public void Auto_OnAFastDevice_StoresRaw()
    {
        var decision = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(5000));
        Assert.That(decision.Compression, Is.EqualTo(ChunkCompression.None));
        Assert.That(decision.Reason, Is.EqualTo("cache device reads 5,000 MB/s, LZ4 decodes 2,500 MB/s at 60% stored: raw"));
    }

    [TestCase(999, ChunkCompression.Lz4)]
    [TestCase(1001, ChunkCompression.None)]
    public void Auto_PaysWhenTheDeviceIsSlowerThanTheBytesLz4Saves_TimesItsDecodeSpeed(double deviceMbps, ChunkCompression expected) =>
        // LZ4 wins iff r/R + 1/D < 1/R, i.e. R < (1 - r)·D = 0.4 × 2,500 = 1,000 MB/s
        Assert.That(CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(deviceMbps)).Compression, Is.EqualTo(expected));

    [Test]
    public void Auto_WhenTheProbeFails_StoresRawAndSaysWhy()
    {
        var probes = Probes(100) with { ReadMbps = folder => throw new UnauthorizedAccessException($"{folder}: denied") };
        var decision = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], probes);
        Assert.That(decision.Compression, Is.EqualTo(ChunkCompression.None));
        Assert.That(decision.Reason, Does.StartWith("cache device speed not measured ("));
        Assert.That(decision.Reason, Does.EndWith("): raw, the default when unmeasured"));
    }

    [Test]
    public void Auto_OnAReadOnlyCacheFolder_TheRealProbeFails_AndRawIsStoredWithTheReason()
    {
        Directory.CreateDirectory(_dir["cache"]);
        using var readOnly = ReadOnlyBindMount.Over(_dir["cache"]);
        var decision = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], CodecProbes.Default with { Lz4 = () => Decode2500 });
        Assert.That(decision, Is.EqualTo(new CompressionDecision(ChunkCompression.None,
            $"cache device speed not measured ({_dir["cache"]} is on a read-only file system): raw, the default when unmeasured")));
    }

    [Test]
    public void Auto_ASecondTime_ReusesTheRememberedSpeedWithoutProbing()
    {
        int probes = 0;
        var first = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(100, () => probes++));
        var second = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(5000, () => probes++));
        Assert.That(probes, Is.EqualTo(1));
        Assert.That(second, Is.EqualTo(first));
    }

    [Test]
    public void Auto_AfterTheRememberedSpeedExpires_ProbesAgain()
    {
        int probes = 0;
        CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"], Probes(100, () => probes++));
        var later = CompressionDecision.Make(CompressionChoice.Auto, _dir["cache"],
            Probes(5000, () => probes++) with { RememberFor = TimeSpan.Zero });
        Assert.That((probes, later.Compression), Is.EqualTo((2, ChunkCompression.None)));
    }

    [TestCase(CompressionChoice.Lz4, ChunkCompression.Lz4, "lz4: compression lz4")]
    [TestCase(CompressionChoice.None, ChunkCompression.None, "raw: compression none")]
    public void ForcedChoices_NeverProbe(CompressionChoice choice, ChunkCompression expected, string reason)
    {
        var decision = CompressionDecision.Make(choice, _dir["cache"], Probes(100, () => Assert.Fail("probed")) with
        {
            Lz4 = () => throw new AssertionException("measured LZ4"),
        });
        Assert.That(decision, Is.EqualTo(new CompressionDecision(expected, reason)));
    }

    [Test]
    public void TheRealProbe_MeasuresThisFolder_OrSaysWhyNot()
    {
        LinuxOnly.Require("posix_fadvise(DONTNEED) to read past the page cache");
        double mbps = DeviceReadProbe.Measure(_dir.Path);
        Assert.That(mbps, Is.GreaterThan(1).And.LessThan(1_000_000));
        Assert.That(Directory.GetFiles(_dir.Path), Is.Empty, "the probe's file is deleted");
    }

    [Test]
    public void TheLz4Figures_OnThisMachine_AreMeasuredOnTextureLikeData()
    {
        var speed = Lz4Speed.OnThisMachine();
        Assert.That(speed.DecodeMbps, Is.GreaterThan(50));
        Assert.That(speed.Ratio, Is.GreaterThan(0.2).And.LessThan(1));
        Assert.That(Lz4Speed.OnThisMachine(), Is.SameAs(speed), "measured once per process");
    }
}
