using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Benchmarks.Formats;

/// <summary>
/// The layout-restore benchmark's data for one format: an original of <c>entries</c> small entries written by the test
/// writers (not ArchiveEmu's builders), a mod folder replacing every tenth entry with a loose file, and the route that
/// routing would make of it (inputs stat'ed once, as routing does on both the parse and the restore path).
/// </summary>
internal static class LayoutRestoreFixture
{
    private const int EntrySize = 64;
    private const int InjectEvery = 10;

    public static ArchiveRoute Write(string format, string folder, int entries)
    {
        Directory.CreateDirectory(folder);
        var original = Path.Combine(folder, $"original.{format}");
        var data = new byte[EntrySize];
        new Random(entries).NextBytes(data);
        var names = Enumerable.Range(0, entries).Select(i => $"data/file{i:D5}.bin").ToArray();
        switch (format)
        {
            case "afs":
                File.WriteAllBytes(original, AfsTestWriter.Write(Enumerable.Repeat<byte[]?>(data, entries).ToArray()));
                break;
            case "awb":
                File.WriteAllBytes(original, AwbTestWriter.Write(Enumerable.Repeat<byte[]?>(data, entries).ToArray()));
                break;
            case "pak":
                File.WriteAllBytes(original, PakTestWriter.Write(new PakTestLayout("V2", 32, true, false), names.Select(n => (n, data)).ToArray()));
                break;
            case "img":
                File.WriteAllBytes(original, ImgTestWriter.Write(names.Select(n => (Path.GetFileName(n), data)).ToArray()));
                names = names.Select(Path.GetFileName).ToArray()!;
                break;
            case "tar":
                DotNetArchiveWriters.WriteTar(original, names.Select(n => (n, data)).ToArray());
                break;
            case "zip":
                DotNetArchiveWriters.WriteZip(original, names.Select(n => (n, data, false)).ToArray());
                break;
            default:
                throw new ArgumentException($"no writer for {format}", nameof(format));
        }

        var mod = Path.Combine(folder, "mod");
        var changes = new List<EntryChange>();
        var random = new Random(7);
        for (int i = 0; i < entries; i += InjectEvery)
        {
            var loose = Path.Combine(mod, format is "afs" or "awb" ? $"{i}.bin" : names[i]);
            Directory.CreateDirectory(Path.GetDirectoryName(loose)!);
            var bytes = new byte[EntrySize + random.Next(-32, 32)]; // injected files differ in size
            random.NextBytes(bytes);
            File.WriteAllBytes(loose, bytes);
            var key = format is "afs" or "awb" ? EntryKey.ByIndex(i) : EntryKey.ByName(names[i]);
            changes.Add(new EntryChange(key, EntryInput.FromFile(loose), "mod"));
        }
        var archiveFormat = ArchiveFormats.ByName(format) ?? throw new InvalidOperationException($"{format} is not registered");
        return new ArchiveRoute(Path.GetFileName(original), original, archiveFormat, new ArchivePatch(changes), []);
    }
}
