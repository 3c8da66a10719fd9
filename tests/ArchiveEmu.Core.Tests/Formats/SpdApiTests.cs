using ArchiveEmu.Core;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>Issue 22, "for both": the library API and the merged cache serve an emulated SPD like any archive, its listing by texture and sprite.</summary>
public sealed class SpdApiTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders() => _dir = new TempDirectory("spd-api");

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    private static byte[] Read(ArchiveEmulator emulator, string route)
    {
        using var file = emulator.Open(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    [Test]
    public void ArchiveEmulator_ServesTheSpd_DescribesItsTexturesAndSprites_AndTheMergedCopyReadsTheSame()
    {
        _dir.Write("game/ui/chat.spd", SpdTests.Original());
        var dds = SpdTests.Dds(50);
        _dir.Write("mod/FEmulator/SPD/chat.spd/spr_5.dds", dds);
        byte[] served;
        using (var emulator = new ArchiveEmulator(_dir["game"], new ArchiveEmulatorOptions { CacheFolder = _dir["cache"] }))
        {
            emulator.AddModFolder(_dir["mod"]);
            served = Read(emulator, "ui/chat.spd");
            var spd = SpdIndependentReader.Read(served, "served SPD");
            Assert.That(spd.Textures.Last().Dds, Is.EqualTo(dds));
            Assert.That(spd.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 0, 1, 1, 1, 3 }));
            Assert.That(emulator.Describe("ui/chat.spd").Where(e => e.State != EntryState.Original).Select(e => (e.Name, e.State)),
                Is.EqualTo(new[] { ("tex_3.dds", EntryState.Added), ("spr_5.spdspr", EntryState.Replaced) }));
            emulator.Merge("ui/chat.spd");
            Assert.That(Read(emulator, "ui/chat.spd"), Is.EqualTo(served));
        }
        using (var again = new ArchiveEmulator(_dir["game"], new ArchiveEmulatorOptions { CacheFolder = _dir["cache"] }))
        {
            again.AddModFolder(_dir["mod"]);
            Assert.That(Read(again, "ui/chat.spd"), Is.EqualTo(served));
        }
    }
}
