using ArchiveEmu.Cli.Bench;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Bench;

/// <summary>The bench checks every path's bytes against solid's: a path that reads other bytes is an error, not a figure.</summary>
public sealed class ReadRunnerTests
{
    [Test]
    public void Run_PathThatReadsOneWrongByte_IsAnError()
    {
        using var dir = new TempDirectory("bench-runner");
        var scenario = BenchScenario.Find("texture-archive")!.ScaledDown(512);
        using var files = ScenarioFiles.Generate(scenario, dir.Path, _ => { });
        var options = new BenchOptions(Runs: 1, Cold: false, DropAllCaches: false, RandomReads: 5, BlockSize: 1 << 20, ScaleDown: 512);
        var paths = new[]
        {
            new ReadPath(ReadPath.Solid, () => new SolidBenchFile(files.SolidPath)),
            new ReadPath("liar", () => new OneWrongByte(new SolidBenchFile(files.SolidPath), at: files.Length / 2)),
        };

        var error = Assert.Throws<InvalidDataException>(() => new ReadRunner(files, options, _ => { }, CancellationToken.None).Run(paths));
        Assert.That(error!.Message, Does.Contain("path liar read different bytes"));
    }

    [Test]
    public void Scenario_DdsFiles_HaveARealHeaderAndDistinctInjectedBytes()
    {
        using var dir = new TempDirectory("bench-scenario");
        using var files = ScenarioFiles.Generate(BenchScenario.Find("512x128K")!.ScaledDown(8), dir.Path, _ => { });
        var loose = Directory.GetFiles(Path.Combine(files.ModFolder, "data", "512x128K.afs"));
        Assert.That(loose, Has.Length.EqualTo(512));
        var dxt1 = File.ReadAllBytes(loose.Order().First());
        Assert.That(dxt1.AsSpan(0, 4).SequenceEqual("DDS "u8), Is.True);
        Assert.That(BitConverter.ToInt32(dxt1, 4), Is.EqualTo(124));
        Assert.That(dxt1.AsSpan(84, 4).SequenceEqual("DXT1"u8), Is.True);
        Assert.That(dxt1, Has.Length.EqualTo(128 + 16 * 1024));
        Assert.That(files.Length, Is.EqualTo(new FileInfo(files.SolidPath).Length));
        Assert.That(File.ReadAllBytes(files.SolidPath).AsSpan().IndexOf(dxt1), Is.GreaterThan(0), "the emulated archive holds the injected file");
    }

    private sealed class OneWrongByte(BenchFile inner, long at) : BenchFile
    {
        public override long Length => inner.Length;
        public override long Opens => inner.Opens;

        public override int Read(long offset, Span<byte> destination)
        {
            int n = inner.Read(offset, destination);
            if (at >= offset && at < offset + n)
                destination[(int)(at - offset)] ^= 1;
            return n;
        }

        public override void Trace(long offset, int length, ReadTrace trace) => inner.Trace(offset, length, trace);
        public override void Dispose() => inner.Dispose();
    }
}
