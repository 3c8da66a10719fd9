using System.Buffers.Binary;
using System.Text;
using ArchiveEmu.Fuzz;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Inputs to the coverage-guided targets written by hand after reading the cache's parsers (each failed before its fix):
/// damage the documented error does not cover. Run through <see cref="FuzzTargets"/>, as afl++ runs them.
/// </summary>
public sealed class FuzzCorpusRegressionTests
{
    // The chunk table is checked against its index entry, whose chunk size and length passed the index's checksum but
    // were never checked: a chunk size of 0 divided by zero, a huge length overflowed the chunk count.
    [TestCase(3000L, 0, 2500L)]
    [TestCase(3000L, -1024, 2500L)]
    [TestCase(long.MaxValue, 1, 2500L)]
    [TestCase(-3000L, 1024, 2500L)]
    public void AChunkTableOfAnEntryWithImpossibleSizes_IsDamage(long length, int chunkSize, long stored)
    {
        var bytes = new byte[FuzzTargets.ChunkTableExtentBytes + 5];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, length);
        BinaryPrimitives.WriteInt32LittleEndian(bytes.AsSpan(8), chunkSize);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(12), stored);
        bytes[FuzzTargets.ChunkTableExtentBytes] = 1; // the table's version, then a count of 0
        Assert.That(() => FuzzTargets.Run("chunktable", bytes, Path.GetTempPath()), Throws.Nothing);
    }

    // A layout naming a path with a NUL in it reached the file pool's GetFullPath, whose ArgumentException is not the
    // documented damage (found by mutating the layout seed through the target).
    [Test]
    public void ALayoutNamingAPathWithANul_IsDamage()
    {
        using var scratch = new TempDirectory("fuzz-layout");
        var layout = FuzzTargets.Seeds("layout", scratch.Path)[0].Bytes;
        // The files table (which segments open) names the original again, after the header's copy of its path.
        const int headerPath = 1 + 4 + 3 + 4; // version, "afs" with its length, the original's path length
        int length = BinaryPrimitives.ReadInt32LittleEndian(layout.AsSpan(headerPath - 4));
        int filesPath = layout.AsSpan().LastIndexOf(layout.AsSpan(headerPath, length));
        Assert.That(filesPath, Is.GreaterThan(headerPath), "the files table's copy of the path");
        layout[filesPath + 1] = 0;
        Assert.That(() => FuzzTargets.Run("layout", layout, scratch.Path), Throws.Nothing);
    }

    // The index's JSON passed its checksum with a null entry, or null in (or no) field that cannot be null, and the first look-up
    // or use of the entry threw NullReferenceException.
    [TestCase("[null]")]
    [TestCase("""[{"tc":"2<"}]""")] // found by afl++ (cacheindex, 2026-11-27): fields missing, not null
    [TestCase("""[{"key":"b","route":"r","format":"afs","length":1,"created_utc":"2026-11-27T00:00:00Z"}]""")]
    [TestCase("""[{"key":null,"route":"r","format":"afs","length":1,"created_utc":"2026-11-27T00:00:00Z","layout":{"pack":"00000001.pack","offset":16,"length":1,"hash":"00"}}]""")]
    [TestCase("""[{"key":"k","route":"r","format":"afs","length":1,"created_utc":"2026-11-27T00:00:00Z","layout":null}]""")]
    [TestCase("""[{"key":"k","route":"r","format":"afs","length":1,"created_utc":"2026-11-27T00:00:00Z","layout":{"pack":null,"offset":16,"length":1,"hash":"00"}}]""")]
    public void AnIndexWithNullsWhereNoneCanBe_IsDamage(string json) =>
        Assert.That(() => FuzzTargets.Run("cacheindex", Encoding.UTF8.GetBytes(json), Path.GetTempPath()), Throws.Nothing);

    // verified.bin's JSON passed its checksum but a pack recorded as null, or with no spans, was used as if present.
    [TestCase("""{"boot":"fuzz-boot","packs":{"00000001.pack":null}}""")]
    [TestCase("""{"boot":"fuzz-boot","packs":{"00000001.pack":{"identity":{"length":4096},"spans":null}}}""")]
    [TestCase("""{"boot":"fuzz-boot","packs":null}""")]
    public void AVerifiedRecordWithNullsInIt_TrustsNothingAndThrowsNothing(string json)
    {
        using var scratch = new TempDirectory("fuzz-verified");
        Assert.That(() => FuzzTargets.Run("verified", Encoding.UTF8.GetBytes(json), scratch.Path), Throws.Nothing);
    }

    // Issue 48, found by the seeded pass (ReloadedAndProfileFuzzTests): a lone surrogate escaped in a string or a field's name
    // parsed, then reading it threw InvalidOperationException out of every Reloaded-II reader (ReadAll's too).
    // reloadedsetup's input starts with a byte picking the file: 0 AppConfig.json, 1 ReloadedII.json, 2 ModConfig.json.
    [TestCase("modconfig", null, """{"ModId": "\ud800"}""")]
    [TestCase("modconfig", null, """{"ModId": "a", "ModDependencies": ["\udc00\ud800"]}""")]
    [TestCase("modconfig", null, """{"\ud800": 1}""")]
    [TestCase("reloadedsetup", 0, """{"AppId": "game.exe", "AppLocation": "\ud800"}""")]
    [TestCase("reloadedsetup", 1, """{"ApplicationConfigDirectory": "\udc00"}""")]
    [TestCase("reloadedsetup", 2, """{"ModId": "fuzz.mod", "ModDll": "\ud800"}""")]
    // A NUL in an app's AppLocation reached Path.GetFullPath (ArgumentException), and in a profile's path --profile's checks.
    [TestCase("reloadedsetup", 0, """{"AppId": "game.exe", "AppLocation": "/game\u0000/Game.exe"}""")]
    [TestCase("profile", null, """{"game": "/g\u0000", "mods": ["/m"], "reloaded": false, "reloadedDir": null, "options": {"merge": "auto", "compress": "none", "ignoreCase": false, "language": null, "cache": null}}""")]
    public void AReloadedFileOrProfileWithALoneSurrogateOrANul_IsRefusedOrReadNeverThrown(string target, int? file, string json)
    {
        using var scratch = new TempDirectory("fuzz-" + target);
        byte[] bytes = file is { } chosen ? [(byte)chosen, .. Encoding.UTF8.GetBytes(json)] : Encoding.UTF8.GetBytes(json);
        Assert.That(() => FuzzTargets.Run(target, bytes, scratch.Path), Throws.Nothing);
    }
}
