using System.Globalization;
using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 47: a game's loader reading whole entries of a big emulated archive at random, cold, through the mount makes the
/// host read the original about as much as the game asked for, not the megabytes around each read that bring-in and the
/// disk's read-ahead added (13× the bytes). What the original holds in the page cache afterwards is counted by fincore
/// (util-linux), not by anything of ArchiveEmu's.
/// </summary>
[NonParallelizable]
public sealed class ColdLoaderReadTests
{
    private const int Entries = 48, EntrySize = 1 << 20;

    [Test]
    public void WholeEntriesReadAtRandom_BringInNoMoreOfTheOriginalThanTheKernelsReadAheadAsks()
    {
        LibFuseProbe.RequireFuse();
        LinuxOnly.Require("fincore (util-linux)");
        using var temp = new TempDirectory("cold-loader");
        var entries = Enumerable.Range(0, Entries).Select(i => TestData.Random(4700 + i, EntrySize)).ToArray();
        string original = temp.Write("game/data/big.afs", AfsTestWriter.Write(entries));
        var modded = TestData.Random(4799, 5000);
        temp.Write("mod/data/big.afs/0.bin", modded); // one entry replaced: the archive is served emulated
        Directory.CreateDirectory(temp["mnt"]);
        using var host = HostProcess.StartHost(temp["mnt"], $"--ArchiveEmu:Game={temp["game"]}", $"--ArchiveEmu:Mods:0={temp["mod"]}",
            $"--ArchiveEmu:MountPoint={temp["mnt"]}", $"--ArchiveEmu:Cache={temp["cache"]}", "--ArchiveEmu:Merge=never").WaitMounted();
        string mounted = Path.Combine(temp["mnt"], "data/big.afs");
        var offsets = ReadOffsets(mounted, Entries);

        int[] loaded = [30, 9, 41, 17, 25, 3];
        // The game reading the plain original: what the kernel's own read-ahead brings in for this pattern.
        long plain = ResidentAfterLoading(original, ReadOffsets(original, Entries), entries, loaded, original);
        // The same through the mount (its own page cache dropped too, or the reads never reach the host).
        long throughMount = ResidentAfterLoading(mounted, offsets, entries, loaded, original);
        TestContext.Out.WriteLine($"cached after loading {loaded.Length} entries: plain {plain} bytes, through the mount {throughMount}");
        // Bringing in 4–6 MiB per read and 16 MiB ahead, as before issue 47, filled nearly the whole 48 MiB.
        Assert.That(throughMount, Is.LessThanOrEqualTo(plain * 5 / 4 + EntrySize),
            $"{throughMount} bytes of the original cached after reading {loaded.Length} of its {Entries} 1 MiB entries through the mount; {plain} read directly");
        host.Terminate();
        Assert.That(host.WaitExit(TimeSpan.FromSeconds(10)), Is.Zero, host.Output);
    }

    // Entry offsets from the AFS table at the start of the mounted archive (little-endian offset, size pairs after 8 bytes).
    private static long[] ReadOffsets(string path, int count)
    {
        var table = new byte[8 + 8 * count];
        using var handle = File.OpenHandle(path);
        Assert.That(RandomAccess.Read(handle, table, 0), Is.EqualTo(table.Length));
        return Enumerable.Range(0, count).Select(i => (long)BitConverter.ToUInt32(table, 8 + 8 * i)).ToArray();
    }

    // Drops both files' pages, reads the entries whole in 256 KiB reads (checking the bytes), and returns how much of the original is cached.
    private static long ResidentAfterLoading(string path, long[] offsets, byte[][] entries, int[] loaded, string original)
    {
        PageCacheProbe.Drop(original);
        DropReadOnly(path);
        Assert.That(ResidentBytes(original), Is.LessThan(1 << 20), "dropped");
        using (var handle = File.OpenHandle(path))
        {
            var piece = new byte[256 * 1024];
            foreach (int i in loaded)
                for (int at = 0; at < EntrySize; at += piece.Length)
                {
                    Assert.That(RandomAccess.Read(handle, piece, offsets[i] + at), Is.EqualTo(piece.Length));
                    Assert.That(piece.AsSpan().SequenceEqual(entries[i].AsSpan(at, piece.Length)), $"{path}: entry {i} at {at}");
                }
        }
        Thread.Sleep(500); // anything asked ahead in the background has landed by now
        return ResidentBytes(original);
    }

    private static void DropReadOnly(string path)
    {
        using var handle = File.OpenHandle(path);
        Assert.That(Core.Interop.LibC.PosixFadvise((int)handle.DangerousGetHandle(), 0, 0, Core.Interop.LibC.POSIX_FADV_DONTNEED), Is.Zero, path);
    }

    private static long ResidentBytes(string path)
    {
        var result = ExternalTool.Run("fincore", "--bytes", "--noheadings", "--output", "RES", path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return long.Parse(result.StdOut.Trim(), CultureInfo.InvariantCulture);
    }
}
