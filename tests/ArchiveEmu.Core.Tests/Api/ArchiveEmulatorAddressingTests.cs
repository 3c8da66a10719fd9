using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Tests.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary><see cref="ArchiveEmulator.AddressingOf"/>: which kind of <see cref="EntryKey"/> a route's inputs take.</summary>
public sealed class ArchiveEmulatorAddressingTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("api-addressing");
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 100), TestData.Random(2, 200)]));
        var pak = PakTestWriter.Write(PakTestLayout.All[2], [("m0.bin", TestData.Random(3, 300))]);
        _dir.Write("game/data/models.pak", pak);
        _dir.Write("game/data/bundle.bin", [.. TestData.Random(4, 1000), .. pak]);
        DotNetArchiveWriters.WriteZip(_dir["game/data/ui.zip"], ("ui/a.txt", TestData.Random(5, 50), false));
        _dir.Write("game/data/ids.cpk", CpkTestWriter.WriteIdOnly([new(0, TestData.Random(6, 300)), new(3, TestData.Random(7, 700))]));
        _dir.Write("game/data/named.cpk", CpkTestWriter.WriteNamed(CpkTestFiles.Named()));
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void AddressingOf_IsByIndexForIndexFormatsAndAnIdOnlyCpk_AndByNameForNameFormats()
    {
        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddArchiveSlice("data/bundle.bin/inner.pak", _dir["game/data/bundle.bin"], 1000, new FileInfo(_dir["game/data/models.pak"]).Length);

        Assert.That(emulator.AddressingOf("data/tex.afs"), Is.EqualTo(EntryAddressing.ByIndex));
        Assert.That(emulator.AddressingOf("data/ids.cpk"), Is.EqualTo(EntryAddressing.ByIndex));
        Assert.That(emulator.AddressingOf("data/named.cpk"), Is.EqualTo(EntryAddressing.ByName));
        Assert.That(emulator.AddressingOf("data/models.pak"), Is.EqualTo(EntryAddressing.ByName));
        Assert.That(emulator.AddressingOf("data/ui.zip"), Is.EqualTo(EntryAddressing.ByName));
        Assert.That(emulator.AddressingOf("data/bundle.bin/inner.pak"), Is.EqualTo(EntryAddressing.ByName));
        Assert.That(() => emulator.AddressingOf("data/missing.afs"), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("missing.afs"));
    }

    [Test]
    public void AddressingOf_SaysWhichKeyAnInputTakes()
    {
        using var emulator = new ArchiveEmulator(_dir["game"]);
        foreach (var route in new[] { "data/tex.afs", "data/ids.cpk", "data/models.pak", "data/ui.zip" })
        {
            var right = emulator.AddressingOf(route) == EntryAddressing.ByIndex ? EntryKey.ByIndex(0) : EntryKey.ByName("new.bin");
            var wrong = right.IsIndex ? EntryKey.ByName("new.bin") : EntryKey.ByIndex(0);
            Assert.That(() => emulator.AddBytes(route, wrong, new byte[1]), Throws.ArgumentException, route);
            Assert.That(emulator.AddBytes(route, right, new byte[1]).Route, Is.EqualTo(route));
        }
    }
}
