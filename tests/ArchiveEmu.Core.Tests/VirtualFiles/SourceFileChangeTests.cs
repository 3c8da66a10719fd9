using ArchiveEmu.TestSupport;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.VirtualFiles;

/// <summary>A file that changes after the build gives a clear I/O error, never zeros or stale bytes.</summary>
public sealed class SourceFileChangeTests
{
    [Test]
    public void Read_SourceTruncatedAfterBuild_ThrowsIOExceptionNamingTheFile()
    {
        using var folder = new TempDirectory("shrink");
        var path = folder.Write("loose.dds", TestData.Random(5, 10000));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendBytes(new byte[16]).AppendFile(path, 0, 10000).Build();
        var buffer = new byte[100];
        file.ReadExactly(16, buffer); // opens the handle while the file is whole

        using (var stream = new FileStream(path, FileMode.Open, FileAccess.Write))
            stream.SetLength(4000);

        Assert.That(() => file.Read(16 + 5000, buffer),
            Throws.InstanceOf<IOException>().With.Message.Contains("loose.dds").And.Message.Contains("shorter"));
        // Bytes still inside the shorter file read as they are: the error is only where bytes are missing.
        Assert.That(file.Read(16, buffer), Is.EqualTo(100));
    }

    [Test]
    public void Read_AcrossTheNewEndOfATruncatedSource_ThrowsIOExceptionAfterTheShortRead()
    {
        // The first pread returns the 50 bytes left before the new end, the next one none: a short read, then the error.
        using var folder = new TempDirectory("shrink-across");
        var path = folder.Write("loose.dds", TestData.Random(6, 10000));
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendFile(path, 0, 10000).Build();
        var buffer = new byte[100];
        file.ReadExactly(0, buffer); // opens the handle while the file is whole

        using (var stream = new FileStream(path, FileMode.Open, FileAccess.Write))
            stream.SetLength(4000);

        Assert.That(() => file.Read(3950, buffer),
            Throws.InstanceOf<IOException>().With.Message.Contains("loose.dds").And.Message.Contains("nothing to read at offset 4000"));
    }

    [Test]
    public void Read_SourceReplacedAfterBuildAndHandleEvicted_ThrowsIOExceptionNamingTheFile()
    {
        using var folder = new TempDirectory("replace");
        var a = folder.Write("a.bin", TestData.Random(6, 4096));
        var b = folder.Write("b.bin", TestData.Random(7, 4096));
        var pool = new FileHandlePool(1);
        using var file = new VirtualFileBuilder(pool).AppendFile(a, 0, 4096).AppendFile(b, 0, 4096).Build();

        File.WriteAllBytes(a, TestData.Random(8, 5000)); // new size: a re-open must notice
        var buffer = new byte[10];
        file.ReadExactly(4096, buffer); // reading b evicts a's handle (pool of one)

        Assert.That(() => file.Read(0, buffer),
            Throws.InstanceOf<IOException>().With.Message.Contains("a.bin").And.Message.Contains("changed since"));
    }

    // Issue 17: rewritten in place with the same size and its mtime put back (cp -p, touch -r): the ctime gives it away.
    [Test]
    public void Read_SourceRewrittenWithTheSameSizeAndMtimeAndHandleEvicted_ThrowsIOExceptionNamingTheFile()
    {
        using var folder = new TempDirectory("rewrite");
        var a = folder.Write("a.bin", TestData.Random(6, 4096));
        var b = folder.Write("b.bin", TestData.Random(7, 4096));
        var mtime = File.GetLastWriteTimeUtc(a);
        var pool = new FileHandlePool(1);
        using var file = new VirtualFileBuilder(pool).AppendFile(a, 0, 4096).AppendFile(b, 0, 4096).Build();

        File.WriteAllBytes(a, TestData.Random(8, 4096));
        File.SetLastWriteTimeUtc(a, mtime);
        var buffer = new byte[10];
        file.ReadExactly(4096, buffer); // reading b evicts a's handle (pool of one)

        Assert.That(() => file.Read(0, buffer),
            Throws.InstanceOf<IOException>().With.Message.Contains("a.bin").And.Message.Contains("changed since"));
    }

    [Test]
    public void Read_SourceDeletedAfterBuild_ThrowsIOExceptionNamingTheFile()
    {
        using var folder = new TempDirectory("vanish");
        var path = folder.Write("gone.bin", TestData.Random(9, 100));
        using var file = new VirtualFileBuilder(new FileHandlePool(2)).AppendFile(path, 0, 100).Build();
        File.Delete(path);
        Assert.That(() => file.Read(0, new byte[10]),
            Throws.InstanceOf<IOException>().With.Message.Contains("gone.bin").And.Message.Contains("vanished"));
    }

    [Test]
    public void Read_SourceReplacedByRenameWhileOpen_KeepsServingTheOldBytesWhole()
    {
        LinuxOnly.Require("renaming a file over one held open (POSIX rename; Windows and Wine refuse it while a handle is open)");
        // What mod managers and editors do: write a new file, rename it over the old one. An open handle keeps
        // the old inode, so the virtual file stays one consistent version — never old and new bytes mixed.
        using var folder = new TempDirectory("rename");
        var old = TestData.Random(10, 50_000);
        var path = folder.Write("tex.dds", old);
        using var file = new VirtualFileBuilder(new FileHandlePool(4)).AppendBytes(new byte[8]).AppendFile(path, 0, old.Length).Build();
        var head = new byte[100];
        file.ReadExactly(8, head); // handle open on the old version

        var replacement = folder.Write("tex.dds.new", TestData.Random(11, 50_000));
        File.Move(replacement, path, overwrite: true);

        var all = new byte[old.Length];
        file.ReadExactly(8, all);
        Assert.That(all, Is.EqualTo(old));
    }
}
