using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Regression: an input added or removed in code must not walk the mod folders again (docs/api/changes.md: only Invalidate
/// re-reads them), so a file written into a mod folder afterwards shows only after Invalidate.
/// </summary>
public sealed class ModFolderWalkReuseTests
{
    private const string Afs = "data/tex.afs";

    [Test]
    public void AddBytesAfterAModFileWasWritten_DoesNotWalkTheModFoldersAgain_InvalidateDoes()
    {
        using var game = new EmulatorTestGame();
        using var emulator = new ArchiveEmulator(game.Game);
        emulator.AddModFolder(game.Mod);
        using (emulator.Open(Afs)) { }

        var five = TestData.Random(710, 4000);
        game.Write("mods/hd/data/tex.afs/5.dds", five); // no Invalidate: the walk already made is kept
        var seven = TestData.Random(711, 1500);
        emulator.AddBytes(Afs, EntryKey.ByIndex(7), seven);
        using (var file = emulator.Open(Afs))
        {
            var afs = EmulatorTestGame.ReadAll(file);
            Assert.That(EmulatorTestGame.AfsEntry(afs, 7), Is.EqualTo(seven));
            Assert.That(EmulatorTestGame.AfsEntry(afs, 5), Is.EqualTo(game.Originals[5]));
            Assert.That(EmulatorTestGame.AfsEntry(afs, 2), Is.EqualTo(File.ReadAllBytes(game.ModTwo)));
        }

        emulator.Invalidate(Afs);
        using (var file = emulator.Open(Afs))
        {
            var afs = EmulatorTestGame.ReadAll(file);
            Assert.That(EmulatorTestGame.AfsEntry(afs, 5), Is.EqualTo(five));
            Assert.That(EmulatorTestGame.AfsEntry(afs, 7), Is.EqualTo(seven));
        }
    }
}
