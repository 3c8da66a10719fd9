using System.Runtime.Versioning;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Host.Mount;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

/// <summary>
/// The mount's clone of one emulated archive (<see cref="EmulatedClone"/>), without a mount: what it makes, and what it
/// refuses — a clone whose sources changed while it was made, one that could share too little, a file system that
/// cannot share (said once, then not tried again).
/// </summary>
[SupportedOSPlatform("linux")]
public sealed class EmulatedCloneTests
{
    private static (EmulatedArchive Archive, byte[] Bytes) Emulated(string original, int replacedSize)
    {
        var afs = ArchiveFormats.ByName("afs")!;
        var archive = afs.Build(afs.ReadIndex(original), new ArchivePatch([
            new EntryChange(EntryKey.ByIndex(3), EntryInput.FromBytes(TestData.Random(33, replacedSize)), "mod")]));
        var bytes = new byte[archive.File.Length];
        archive.File.ReadExactly(0, bytes);
        return (archive, bytes);
    }

    private static byte[] Original() => AfsTestWriter.Write(Enumerable.Range(0, 16).Select(i => (byte[]?)TestData.Random(i, 20_000 + 97 * i)).ToArray());

    [Test]
    public void Made_HoldsTheEmulatedBytes_AndSaysWhatItShared()
    {
        using var xfs = ReflinkFolder.Create();
        string original = Path.Combine(xfs.Folder, "data.afs");
        File.WriteAllBytes(original, Original());
        var (archive, bytes) = Emulated(original, 30_001);
        using var _ = archive;
        var log = new List<string>();

        var made = new EmulatedClone(original, new CloneSupport()).Make(archive.File, () => true, log.Add);

        Assert.That(made, Is.Not.Null, string.Join('\n', log));
        using var handle = made!.Value.Handle;
        var read = new byte[bytes.Length];
        Assert.That(RandomAccess.Read(handle, read, 0), Is.EqualTo(bytes.Length));
        Assert.That(read, Is.EqualTo(bytes));
        Assert.That(made.Value.Made, Does.Match(@"^cloned for passthrough in \d+ ms: .+ shared with the original, .+ written$"));
        Assert.That(Directory.GetFiles(xfs.Folder), Is.EqualTo(new[] { original }), "the clone has no name");
    }

    [Test]
    public void ASourceThatChangedWhileItWasMade_LeavesNoClone()
    {
        using var xfs = ReflinkFolder.Create();
        string original = Path.Combine(xfs.Folder, "data.afs");
        File.WriteAllBytes(original, Original());
        var (archive, _) = Emulated(original, 30_001);
        using var __ = archive;

        Assert.That(() => new EmulatedClone(original, new CloneSupport()).Make(archive.File, () => false, _ => { }),
            Throws.InstanceOf<IOException>().With.Message.EqualTo("not cloned: a file it is made of changed while it was cloned"));
    }

    [Test]
    public void AnArchiveOfWhichOver256MiBCouldNotBeShared_IsNotCloned_AndNothingIsWritten()
    {
        using var dir = new TempDirectory("emulated-clone");
        string original = dir.Write("data.afs", Original());
        var afs = ArchiveFormats.ByName("afs")!;
        var zeros = new ArchiveEmu.Core.VirtualFiles.VirtualFileBuilder().AppendZeros(300L << 20).Build(); // costs no disk or memory
        using var archive = afs.Build(afs.ReadIndex(original), new ArchivePatch([
            new EntryChange(EntryKey.ByIndex(3), EntryInput.FromVirtualFile(zeros, "zeros"), "mod")]));
        var log = new List<string>();

        Assert.That(new EmulatedClone(original, new CloneSupport()).Make(archive.File, () => true, log.Add), Is.Null);

        Assert.That(log, Has.Count.EqualTo(1));
        Assert.That(log[0], Does.Match(@"^not cloned: 300\.\d+ MiB of it could not be shared with the original \(more than a private copy's 256 MiB\); the host serves it$"));
        Assert.That(Directory.GetFiles(dir.Path), Is.EqualTo(new[] { original }));
    }

    [Test]
    public void AFileSystemThatCannotShare_IsSaidOnce_AndNotTriedAgain()
    {
        using var dir = new TempDirectory("emulated-clone");
        ReflinkFolder.IgnoreIfItSharesBlocks(dir.Path);
        string original = dir.Write("data.afs", Original());
        var (archive, _) = Emulated(original, 30_001);
        using var __ = archive;
        var support = new CloneSupport();
        var log = new List<string>();

        Assert.That(new EmulatedClone(original, support).Make(archive.File, () => true, log.Add), Is.Null);
        Assert.That(new EmulatedClone(original, support).Make(archive.File, () => true, log.Add), Is.Null);

        Assert.That(log, Is.EqualTo(new[] { $"no clones for passthrough (the clone of {original}: the file system cannot share blocks with {original} "
                                            + "(no reflink: Operation not supported); btrfs and XFS can); emulated archives are served by the host" }));
        Assert.That(support.Refused, Is.True);
    }
}
