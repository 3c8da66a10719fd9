using System.Runtime.Versioning;
using System.Text.RegularExpressions;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.RealFiles;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.RealFiles;

/// <summary>
/// Copy-on-write clones of emulated archives: the clone holds exactly the emulated bytes, and what it shares with the
/// original is read back with filefrag (e2fsprogs), which shares no code with ArchiveEmu, from XFS on a loop device.
/// </summary>
[SupportedOSPlatform("linux")]
public sealed partial class ArchiveCloneTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        LinuxOnly.Require("copy-on-write clones (FICLONERANGE)");
        _dir = new TempDirectory("clone");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    /// <summary>48 entries of 40–60 KiB; entries 5 and 30 replaced by bigger ones, so those after them move.</summary>
    private static EmulatedArchive Emulated(string original)
    {
        var afs = ArchiveFormats.ByName("afs")!;
        return afs.Build(afs.ReadIndex(original), new ArchivePatch([
            new EntryChange(EntryKey.ByIndex(5), EntryInput.FromBytes(TestData.Random(105, 70_001)), "mod"),
            new EntryChange(EntryKey.ByIndex(30), EntryInput.FromBytes(TestData.Random(130, 65_537)), "mod"),
        ]));
    }

    private static byte[] Original() =>
        AfsTestWriter.Write(Enumerable.Range(0, 48).Select(i => (byte[]?)TestData.Random(i, 40_000 + 431 * i)).ToList());

    [TestCase("xfs")]
    [TestCase("btrfs")]
    public void OnXfsOrBtrfs_TheCloneHoldsTheEmulatedBytes_AndSharesWithTheOriginalWhatThePlanSays(string fileSystem)
    {
        using var xfs = ReflinkFolder.Create(fileSystem);
        string original = Path.Combine(xfs.Folder, "data.afs");
        File.WriteAllBytes(original, Original());
        string clone = Path.Combine(xfs.Folder, "data.clone");
        File.WriteAllBytes(clone, TestData.Random(7, 1000)); // an older clone, replaced whole
        using var archive = Emulated(original);

        var result = ArchiveClone.Write(archive.File, original, clone);

        Assert.That(File.ReadAllBytes(clone), Is.EqualTo(AfsTests.Materialise(archive)));
        Assert.That(File.ReadAllBytes(original), Is.EqualTo(Original()), "the original is untouched");
        Assert.That(result.Shared + result.Written + result.Holes, Is.EqualTo(new FileInfo(clone).Length));
        Assert.That(result.Shared, Is.GreaterThan(new FileInfo(clone).Length * 8 / 10), "the entries after the grown ones move by whole blocks");
        Assert.That(SharedBytes(clone), Is.EqualTo(result.Shared), "filefrag's shared extents");
        Assert.That(Directory.GetFiles(xfs.Folder).Select(Path.GetFileName), Is.EquivalentTo(new[] { "data.afs", "data.clone" }), "no temporary file left");
    }

    [Test]
    public void OnAFileSystemThatCannotShareBlocks_IsRefusedInOneLine_AndNothingIsWritten()
    {
        ReflinkFolder.IgnoreIfItSharesBlocks(_dir.Path);
        string original = _dir.Write("data.afs", Original());
        string clone = _dir["data.clone"];
        using var archive = Emulated(original);

        Assert.That(() => ArchiveClone.Write(archive.File, original, clone), Throws.InstanceOf<CloneRefusedException>()
            .With.Message.EqualTo($"{clone}: the file system cannot share blocks with {original} (no reflink: Operation not supported); btrfs and XFS can"));
        Assert.That(Directory.GetFiles(_dir.Path).Select(Path.GetFileName), Is.EquivalentTo(new[] { "data.afs" }));
    }

    [Test]
    public void AcrossTwoFileSystems_IsRefusedSayingSo()
    {
        using var xfs = ReflinkFolder.Create();
        string original = _dir.Write("data.afs", Original());
        string clone = Path.Combine(xfs.Folder, "data.clone");
        using var archive = Emulated(original);

        Assert.That(() => ArchiveClone.Write(archive.File, original, clone), Throws.InstanceOf<CloneRefusedException>()
            .With.Message.EqualTo($"{clone}: cannot share blocks with {original}: they are on different file systems"));
        Assert.That(Directory.GetFiles(xfs.Folder), Is.Empty);
    }

    /// <summary>Bytes in the extents filefrag -v flags "shared".</summary>
    private static long SharedBytes(string path)
    {
        var result = ExternalTool.Run("filefrag", "-v", path);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        long blockSize = long.Parse(BlockSize().Match(result.StdOut).Groups[1].Value);
        return result.StdOut.Split('\n').Select(line => Extent().Match(line)).Where(m => m.Success && m.Groups[2].Value.Contains("shared"))
            .Sum(m => long.Parse(m.Groups[1].Value)) * blockSize;
    }

    [GeneratedRegex(@"blocks of (\d+) bytes")]
    private static partial Regex BlockSize();

    // " ext:  logical_offset:  physical_offset: length:  expected: flags:", e.g. "   1:   16..   31:   40..   55:   16:        shared"
    [GeneratedRegex(@"^\s*\d+:\s*\d+\.\.\s*\d+:\s*\d+\.\.\s*\d+:\s*(\d+):(.*)$")]
    private static partial Regex Extent();
}
