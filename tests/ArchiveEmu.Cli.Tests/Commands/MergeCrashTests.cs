using System.Diagnostics;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// <c>build --merge</c> as real processes: killed with SIGKILL at random moments, and two at once. After
/// every kill the cache is old or new, never wrong: <c>cat</c> through it gives exactly the emulated bytes.
/// </summary>
public sealed class MergeCrashTests
{
    private TempDirectory _dir = null!;
    private string _cache = "";
    private string[] _gameArgs = [];

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("crash");
        // 15 MiB of entries, a tenth injected: writing the merged copy takes long enough to be killed in the middle.
        var entries = Enumerable.Range(0, 384).Select(i => (byte[]?)TestData.Random(i, 40 * 1024 - i)).ToArray();
        _dir.Write("game/data/big.afs", AfsTestWriter.Write(entries));
        for (int i = 0; i < 384; i += 10)
            _dir.Write($"mods/m/data/big.afs/{i}.bin", TestData.Random(1000 + i, 20_000 + i));
        _cache = _dir["cache"];
        _gameArgs = ["--game", _dir["game"], "--mod", _dir["mods/m"]];
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void KilledAtRandomMoments_TheCacheIsNeverWrong()
    {
        LinuxOnly.Require("under Wine the archiveemu.exe these start failed in the 2026-11-27 check (to investigate: see docs/RELIABILITY.md)");
        if (ArchiveEmuProgram.Installed is not null) // seen: 12 of 100 NativeAOT runs killed, the rest done within the window
            Assert.Ignore("the kill moments (up to 250 ms) are sized for the JIT-compiled CLI; an installed NativeAOT build finishes first");
        var expected = CatBytes("--no-cache");
        var random = new Random(20261123);
        int killedMidRun = 0;
        for (int i = 0; killedMidRun < 20 && i < 100; i++)
        {
            using var build = StartBuild(i % 2 == 0 ? "lz4" : "none");
            // Odd runs die at a random moment of the whole run; even ones while the pack is being written.
            if (i % 2 == 0)
                WaitForPackBytes(build);
            if (!build.WaitForExit(i % 2 == 0 ? random.Next(0, 20) : random.Next(20, 250)))
            {
                build.Kill();
                killedMidRun++;
            }
            build.WaitForExit();
            var cat = CliRun.Run(["cat", .. _gameArgs, "--cache", _cache, "data/big.afs", "-o", _dir["out.afs"]]);
            Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
            Assert.That(File.ReadAllBytes(_dir["out.afs"]), Is.EqualTo(expected), $"after kill {i}");
            Assert.That(cat.Error, Does.Not.Contain("damaged"), "a kill leaves the old or the new index, never a torn one");
            if (i % 5 == 4) // now and then the cache changes under the next run, so kills also land on rewrites
                Directory.Delete(_cache, recursive: true);
        }
        Assert.That(killedMidRun, Is.EqualTo(20), "20 runs really killed before they finished");

        using (var final = StartBuild("lz4"))
            final.WaitForExit();
        var ls = CliRun.Run("cache", "ls", "--cache", _cache, "--json");
        Assert.That(ls.Out, Does.Contain("\"merged\": true"), ls.ToString());
        Assert.That(CatBytes("--cache", _cache), Is.EqualTo(expected));
    }

    [Test]
    public void TwoProcessesBuildingAtOnce_BothSucceed_AndTheCacheHoldsOneGoodEntry()
    {
        LinuxOnly.Require("under Wine the archiveemu.exe these start failed in the 2026-11-27 check (to investigate: see docs/RELIABILITY.md)");
        using var first = StartBuild("lz4");
        using var second = StartBuild("lz4");
        first.WaitForExit();
        second.WaitForExit();
        Assert.That(first.ExitCode, Is.Zero, first.StandardError.ReadToEnd());
        Assert.That(second.ExitCode, Is.Zero, second.StandardError.ReadToEnd());
        var verify = CliRun.Run("cache", "verify", "--cache", _cache);
        Assert.That(verify.ExitCode, Is.Zero, verify.ToString());
        Assert.That(verify.Out, Does.Contain("1 entries checked, 0 damaged"));
        Assert.That(CatBytes("--cache", _cache), Is.EqualTo(CatBytes("--no-cache")));
    }

    private void WaitForPackBytes(Process build)
    {
        var packs = Path.Combine(_cache, "packs");
        long start = Directory.Exists(packs) ? Directory.EnumerateFiles(packs).Sum(f => new FileInfo(f).Length) : 0;
        while (!build.HasExited && (!Directory.Exists(packs) || Directory.EnumerateFiles(packs).Sum(f => new FileInfo(f).Length) <= start + 4096))
            Thread.Sleep(2);
    }

    private byte[] CatBytes(params string[] cacheArgs)
    {
        var output = _dir[$"cat-{Guid.NewGuid():N}.afs"];
        var cat = CliRun.Run(["cat", .. _gameArgs, .. cacheArgs, "data/big.afs", "-o", output]);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        var bytes = File.ReadAllBytes(output);
        File.Delete(output);
        return bytes;
    }

    private Process StartBuild(string compress)
    {
        var start = ArchiveEmuProgram.StartInfo(["build", .. _gameArgs, "--merge", "always", "--cache", _cache, "--compress", compress]);
        return Process.Start(start) ?? throw new InvalidOperationException("could not start archiveemu");
    }
}
