using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 19 through the library: a mod folder that changes a PAK inside a PAK, opened with <see cref="ArchiveEmulator"/>;
/// an input added in code for that entry wins it whole, and a slice declared with AddArchiveSlice still nests further.
/// </summary>
public sealed class NestedArchiveApiTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("api-nested");
        _dir.Write("game/data/init.pak", Pak(("in.pak", Pak(("x", TestData.Random(1, 100)), ("y", TestData.Random(2, 100)))), ("z", TestData.Random(3, 50))));
        _dir.Write("mod/data/init.pak/in.pak/x", TestData.Random(4, 120));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    private static byte[] Pak(params (string Name, byte[] Data)[] entries) => PakTestWriter.Write(V2, entries);

    [Test]
    public void ModFolder_ChangesTheInnerArchive_AndDescribeSaysNested()
    {
        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "data/init.pak" }));
        var outer = PakV2Records.Members(Read(emulator, "data/init.pak"));
        Assert.That(PakV2Records.Members(outer[0].Bytes), Is.EqualTo(new[] { ("x", TestData.Random(4, 120)), ("y", TestData.Random(2, 100)) }));
        Assert.That(outer[1].Bytes, Is.EqualTo(TestData.Random(3, 50)));
        Assert.That(emulator.Describe("data/init.pak").Select(e => (e.Name, e.State, e.Origin)),
            Is.EqualTo(new[] { ("in.pak", EntryState.Replaced, "nested (mod)"), ("z", EntryState.Original, "original") }));
    }

    [Test]
    public void AnInputInCode_ForTheEntryModsChangeInside_WinsItWhole()
    {
        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        emulator.AddBytes("data/init.pak", EntryKey.ByName("in.pak"), TestData.Random(5, 77), "loader");
        Assert.That(PakV2Records.Members(Read(emulator, "data/init.pak"))[0].Bytes, Is.EqualTo(TestData.Random(5, 77)));
        Assert.That(emulator.Describe("data/init.pak")[0].Origin, Is.EqualTo("loader"));
    }

    [Test]
    public void ADeclaredSlice_ReachesArchivesInsideIt_FromTheModFolder()
    {
        var inner = Pak(("deep.pak", Pak(("w", TestData.Random(6, 10)))));
        var container = _dir.Write("game/data/bundle.bin", [.. new byte[64], .. inner, .. new byte[32]]);
        _dir.Write("mod/data/bundle.bin/inner.pak/deep.pak/w", TestData.Random(7, 11));
        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddArchiveSlice("data/bundle.bin/inner.pak", container, 64, inner.Length);
        emulator.AddModFolder(_dir["mod"]);
        var deep = PakV2Records.Members(PakV2Records.Members(Read(emulator, "data/bundle.bin/inner.pak")).Single().Bytes);
        Assert.That(deep, Is.EqualTo(new[] { ("w", TestData.Random(7, 11)) }));
    }

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var file = emulator.Open(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }
}
