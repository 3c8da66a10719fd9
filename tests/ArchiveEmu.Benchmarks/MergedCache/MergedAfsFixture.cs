using System.Globalization;
using ArchiveEmu.Benchmarks.Formats;
using ArchiveEmu.Core;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Interop;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;

namespace ArchiveEmu.Benchmarks.MergedCache;

/// <summary>
/// A 512 x 128 KiB AFS with every tenth entry injected, merged raw into a cache through the library, and a plain copy
/// of the emulated bytes (`solid`): what the merged-read benchmarks compare. Deleted on dispose.
/// </summary>
internal sealed class MergedAfsFixture : IDisposable
{
    public MergedAfsFixture(string name)
    {
        Folder = Path.Combine(Path.GetTempPath(), $"archiveemu-{name}-{Environment.ProcessId}");
        LargeAfsFixture.Write(Path.Combine(Folder, "game"), 512, 128 << 10, 10, out string archive, out string[] loose);
        Emulator = new ArchiveEmulator(Path.GetDirectoryName(archive)!,
            new ArchiveEmulatorOptions { CacheFolder = Path.Combine(Folder, "cache"), Compression = CompressionChoice.None });
        Route = Path.GetFileName(archive);
        foreach (var path in loose)
            Emulator.AddFile(Route, EntryKey.ByIndex(int.Parse(Path.GetFileNameWithoutExtension(path), CultureInfo.InvariantCulture)), path);
        Emulator.Merge(Route);
        Extent = Emulator.Cache!.Entries().Single(e => e.Merged is not null).Merged!;
        PackPath = Emulator.Cache.PathOf(Extent.Chunks);
        SolidPath = Path.Combine(Folder, "solid.bin");
        using (var output = File.Create(SolidPath))
        using (var stream = Emulator.OpenStream(Route))
            stream.CopyTo(output);
        using var probe = Emulator.Open(Route);
        if (probe.Files.Any())
            throw new InvalidDataException($"{Route} was served by emulation, not from the merged cache");
    }

    public string Folder { get; }
    public ArchiveEmulator Emulator { get; }
    public string Route { get; }
    public MergedExtent Extent { get; }
    public string PackPath { get; }
    public string SolidPath { get; }

    /// <summary>Writes dirty pages back, then drops both files' pages (posix_fadvise DONTNEED).</summary>
    public void DropPages()
    {
        using (var sync = System.Diagnostics.Process.Start("sync"))
            sync!.WaitForExit();
        foreach (var path in new[] { SolidPath, PackPath })
        {
            using var handle = File.OpenHandle(path);
            _ = LibC.PosixFadvise((int)handle.DangerousGetHandle(), 0, 0, LibC.POSIX_FADV_DONTNEED);
        }
    }

    public void Dispose()
    {
        Emulator.Dispose();
        if (Directory.Exists(Folder))
            Directory.Delete(Folder, recursive: true);
    }
}
