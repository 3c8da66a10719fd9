using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>Every public method of <see cref="ArchiveEmulator"/>, its error paths, and bytes checked entry by entry.</summary>
public sealed class ArchiveEmulatorTests
{
    private const string Afs = "data/tex.afs";
    private EmulatorTestGame _game = null!;

    [SetUp]
    public void CreateGame() => _game = new EmulatorTestGame();

    [TearDown]
    public void DeleteGame() => _game?.Dispose(); // null when SetUp was skipped (Windows: no python3)

    [Test]
    public void Open_WithNothingAdded_IsTheOriginal()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        using var file = emulator.Open(Afs);
        Assert.That(EmulatorTestGame.ReadAll(file), Is.EqualTo(File.ReadAllBytes(_game["game/" + Afs])));
    }

    [Test]
    public void FileSliceBytesAndDelete_EachEntryHasTheBytesAsked_CheckedByAnIndependentReader()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        var loose = _game.Write("loose/a.dds", TestData.Random(1, 7000));
        var sheet = _game.Write("loose/sheet.bin", TestData.Random(2, 9000));
        var bytes = TestData.Random(3, 1234);
        emulator.AddFile(Afs, EntryKey.ByIndex(1), loose, "texture-pack");
        emulator.AddFileSlice(Afs, EntryKey.ByIndex(4), sheet, 1000, 2500, "texture-pack");
        emulator.AddBytes(Afs, EntryKey.ByIndex(16), bytes, "generated"); // one past the end: grows the archive
        emulator.AddDelete(Afs, EntryKey.ByIndex(7), "cleanup");

        var output = _game["out.afs"];
        using (var stream = emulator.OpenStream(Afs))
        using (var file = File.Create(output))
            stream.CopyTo(file);
        var entries = AfsIndependentReader.Read(output);
        var expected = _game.Originals.Select(AfsIndependentReader.Sha256).ToList();
        expected[1] = AfsIndependentReader.Sha256(File.ReadAllBytes(loose));
        expected[4] = AfsIndependentReader.Sha256(File.ReadAllBytes(sheet).AsSpan(1000, 2500).ToArray());
        expected[7] = AfsIndependentReader.Sha256([]);
        expected.Add(AfsIndependentReader.Sha256(bytes));
        Assert.That(entries.Select(e => e.Sha256), Is.EqualTo(expected));
    }

    [Test]
    public void ModFoldersAndInputs_InputsWin_AndDescribeSaysWhoProducedEachEntry()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        emulator.AddModFolder(_game.Mod);
        emulator.AddBytes(Afs, EntryKey.ByIndex(3), new byte[] { 1, 2, 3 }, "loader");
        var describe = emulator.Describe(Afs);
        Assert.That(describe[2], Is.EqualTo(new EntryOrigin(2, "name_2.bin", 5000, EntryState.Replaced, "hd", describe[2].Input)));
        Assert.That(describe[2].Input!.Path, Is.EqualTo(_game.ModTwo));
        Assert.That((describe[3].State, describe[3].Origin, describe[3].Size), Is.EqualTo((EntryState.Replaced, "loader", 3L)));
        Assert.That((describe[0].State, describe[0].Origin), Is.EqualTo((EntryState.Original, "original")));

        var overMod = emulator.AddBytes(Afs, EntryKey.ByIndex(2), new byte[] { 9 }, "loader");
        using (var file = emulator.Open(Afs))
            Assert.That(EmulatorTestGame.AfsEntry(EmulatorTestGame.ReadAll(file), 2), Is.EqualTo(new byte[] { 9 }), "code wins over a mod folder");
        emulator.Remove(overMod);
        using (var file = emulator.Open(Afs))
            Assert.That(EmulatorTestGame.AfsEntry(EmulatorTestGame.ReadAll(file), 2), Is.EqualTo(File.ReadAllBytes(_game.ModTwo)));
        Assert.That(emulator.ModFolders, Is.EqualTo(new[] { _game.Mod }));
        Assert.That(emulator.RemoveModFolder(_game.Mod), Is.True);
        Assert.That(emulator.RemoveModFolder(_game.Mod), Is.False);
        Assert.That(emulator.Describe(Afs)[2].State, Is.EqualTo(EntryState.Original));
    }

    [Test]
    public void AFileHandedOut_NeverChanges_AndRemoveRestores()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        using var before = emulator.Open(Afs);
        var beforeBytes = EmulatorTestGame.ReadAll(before);
        var input = emulator.AddBytes(Afs, EntryKey.ByIndex(0), TestData.Random(4, 100_000), "big");
        using (var after = emulator.Open(Afs))
            Assert.That(EmulatorTestGame.AfsEntry(EmulatorTestGame.ReadAll(after), 0), Has.Length.EqualTo(100_000));
        Assert.That(EmulatorTestGame.ReadAll(before), Is.EqualTo(beforeBytes), "the earlier file still reads the earlier bytes");
        Assert.That(emulator.Inputs(Afs), Is.EqualTo(new[] { input }));
        Assert.That(emulator.Remove(input), Is.True);
        Assert.That(emulator.Remove(input), Is.False);
        Assert.That(emulator.Inputs(Afs), Is.Empty);
        using var restored = emulator.Open(Afs);
        Assert.That(EmulatorTestGame.ReadAll(restored), Is.EqualTo(beforeBytes));
    }

    [Test]
    public void RouteChanged_IsRaisedForEveryKindOfChange()
    {
        using var emulator = new ArchiveEmulator(_game.Game, new ArchiveEmulatorOptions { CacheFolder = _game["cache"] });
        var seen = new List<(string, RouteChangeReason)>();
        emulator.RouteChanged += (_, e) => seen.Add((e.Route, e.Reason));
        var input = emulator.AddBytes(Afs, EntryKey.ByIndex(1), new byte[] { 1 }, "x");
        emulator.Invalidate(Afs);
        emulator.Merge(Afs);
        emulator.Remove(input);
        emulator.AddModFolder(_game.Mod);
        Assert.That(seen, Is.EqualTo(new[]
        {
            (Afs, RouteChangeReason.InputAdded), (Afs, RouteChangeReason.Invalidated), (Afs, RouteChangeReason.Merged),
            (Afs, RouteChangeReason.InputRemoved), (Afs, RouteChangeReason.ModFoldersChanged),
        }));
    }

    [Test]
    public void FileInputChangedOrVanished_IsAnErrorNamingIt_UntilInvalidated()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        var loose = _game.Write("loose/x.dds", TestData.Random(5, 800));
        emulator.AddFile(Afs, EntryKey.ByIndex(5), loose);
        File.WriteAllBytes(loose, TestData.Random(6, 900));
        Assert.That(() => emulator.Open(Afs), Throws.InstanceOf<IOException>().With.Message.Contains(loose).And.Message.Contains("Invalidate"));
        emulator.Invalidate(Afs);
        using (var file = emulator.Open(Afs))
            Assert.That(EmulatorTestGame.AfsEntry(EmulatorTestGame.ReadAll(file), 5), Is.EqualTo(File.ReadAllBytes(loose)));
        // Under Wine (and Windows before 10 1809) a file deleted while a handle is open keeps its name until the last
        // handle closes, and the pool still holds one: the deletion cannot be seen there.
        LinuxOnly.Require("a deleted file's name going at once while a handle is open (POSIX delete semantics)");
        File.Delete(loose);
        Assert.That(() => emulator.Open(Afs), Throws.InstanceOf<IOException>().With.Message.Contains(loose).And.Message.Contains("vanished"));
        Assert.That(() => emulator.AddFile(Afs, EntryKey.ByIndex(6), loose), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains(loose));
    }

    [Test]
    public void GameArchiveBehindASymlinkOutsideTheGame_IsFollowed_ByInputsAndModFolders_AndADanglingOneNamesItsTarget()
    {
        LinuxOnly.RequireSymlinks(); // issue 17: game data moved to another drive, a link left behind
        var moved = _game["disk2/tex.afs"];
        Directory.CreateDirectory(Path.GetDirectoryName(moved)!);
        File.Move(_game["game/" + Afs], moved);
        File.CreateSymbolicLink(_game["game/" + Afs], moved);
        File.CreateSymbolicLink(_game["game/data/gone.afs"], _game["disk2/missing.afs"]);

        using var emulator = new ArchiveEmulator(_game.Game);
        emulator.AddModFolder(_game.Mod);
        emulator.AddBytes(Afs, EntryKey.ByIndex(3), new byte[] { 1, 2, 3 }, "loader");
        using var file = emulator.Open(Afs);
        var bytes = EmulatorTestGame.ReadAll(file);
        Assert.That(EmulatorTestGame.AfsEntry(bytes, 2), Is.EqualTo(File.ReadAllBytes(_game.ModTwo)));
        Assert.That(EmulatorTestGame.AfsEntry(bytes, 3), Is.EqualTo(new byte[] { 1, 2, 3 }));
        Assert.That(EmulatorTestGame.AfsEntry(bytes, 5), Is.EqualTo(_game.Originals[5]));
        Assert.That(() => emulator.AddBytes("data/gone.afs", EntryKey.ByIndex(0), new byte[] { 1 }, "loader"),
            Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("missing.afs").And.Message.Contains("leads nowhere"));
    }

    [Test]
    public void BadRequests_AreClearErrors()
    {
        using var emulator = new ArchiveEmulator(_game.Game);
        Assert.That(() => new ArchiveEmulator(_game["nope"]), Throws.InstanceOf<DirectoryNotFoundException>().With.Message.Contains("nope"));
        Assert.That(() => emulator.Open("data/missing.afs"), Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("missing.afs"));
        Assert.That(() => emulator.AddBytes("data/missing.afs", EntryKey.ByIndex(0), new byte[1]), Throws.InstanceOf<FileNotFoundException>());
        Assert.That(() => emulator.Open("../secret.afs"), Throws.ArgumentException.With.Message.Contains("no '..'"));
        Assert.That(() => emulator.AddBytes(Afs, EntryKey.ByName("a.dds"), new byte[1]), Throws.ArgumentException.With.Message.Contains("by index"));
        Assert.That(() => emulator.AddBytes("data/ui.zip", EntryKey.ByIndex(0), new byte[1]), Throws.ArgumentException.With.Message.Contains("by name"));
        emulator.AddBytes(Afs, EntryKey.ByIndex(3), new byte[1], "first");
        Assert.That(() => emulator.AddBytes(Afs, EntryKey.ByIndex(3), new byte[2], "second"),
            Throws.InvalidOperationException.With.Message.Contains("already has an input from first"));
        Assert.That(() => emulator.Merge(Afs), Throws.InvalidOperationException.With.Message.Contains("no cache folder"));
        Assert.That(() => emulator.AddModFolder(_game["nope"]), Throws.InstanceOf<DirectoryNotFoundException>());
        emulator.Dispose();
        Assert.That(() => emulator.Open(Afs), Throws.InstanceOf<ObjectDisposedException>());
    }

    [Test]
    public void ArchiveInsideAnotherFile_IsEmulatedInPlace_ByInputsAndByModFolders()
    {
        const string inner = "data/bundle.bin/inner.pak";
        using var emulator = new ArchiveEmulator(_game.Game);
        emulator.AddArchiveSlice(inner, _game["game/data/bundle.bin"], EmulatorTestGame.PakOffset, _game.Pak.Length);
        using (var untouched = emulator.Open(inner))
            Assert.That(EmulatorTestGame.ReadAll(untouched), Is.EqualTo(_game.Pak), "no input: the inner archive's own bytes, read in place");

        var m1 = TestData.Random(7, 1500);
        emulator.AddBytes(inner, EntryKey.ByName("m1.bin"), m1, "loader");
        _game.Write("mods/hd/data/bundle.bin/inner.pak/m2.bin", TestData.Random(8, 300));
        emulator.AddModFolder(_game.Mod);
        Assert.That(emulator.Routes, Is.EquivalentTo(new[] { Afs, inner }));

        var output = _game["inner.pak"];
        using (var file = emulator.Open(inner))
            File.WriteAllBytes(output, EmulatorTestGame.ReadAll(file));
        var members = PakIndependentReader.Read(output, "V2");
        Assert.That(members.Select(m => (m.Name, m.Sha256)), Is.EqualTo(new[]
        {
            ("m0.bin", AfsIndependentReader.Sha256(_game.PakM0)),
            ("m1.bin", AfsIndependentReader.Sha256(m1)),
            ("m2.bin", AfsIndependentReader.Sha256(File.ReadAllBytes(_game["mods/hd/data/bundle.bin/inner.pak/m2.bin"]))),
        }));
        Assert.That(emulator.Describe(inner).Select(e => e.Origin), Is.EqualTo(new[] { "original", "loader", "hd" }));
        Assert.That(() => emulator.AddArchiveSlice(inner, _game["game/data/bundle.bin"], 0, 10), Throws.InstanceOf<ArchiveFormatException>());
    }

    [TestCase(ChunkCompression.None)]
    [TestCase(ChunkCompression.Lz4)]
    public void Merge_ThenOpen_ServesTheSameBytesFromTheCache(ChunkCompression compression)
    {
        var warnings = new List<string>();
        using var emulator = new ArchiveEmulator(_game.Game, new ArchiveEmulatorOptions { CacheFolder = _game["cache"], Warn = warnings.Add });
        emulator.AddModFolder(_game.Mod);
        emulator.AddBytes(Afs, EntryKey.ByIndex(9), TestData.Random(9, 4444), "loader");
        byte[] emulated;
        using (var file = emulator.Open(Afs))
        {
            Assert.That(file.Segments[0].Source.Describe(), Does.Not.StartWith("merged cache"));
            emulated = EmulatorTestGame.ReadAll(file);
        }
        emulator.Merge(Afs, compression);
        using (var merged = emulator.Open(Afs))
        {
            Assert.That(merged.Segments[0].Source.Describe(), Does.StartWith("merged cache"));
            Assert.That(EmulatorTestGame.ReadAll(merged), Is.EqualTo(emulated));
        }
        emulator.AddBytes(Afs, EntryKey.ByIndex(10), new byte[] { 5 }, "loader"); // a new input: the merged copy is stale
        using (var fresh = emulator.Open(Afs))
        {
            Assert.That(fresh.Segments[0].Source.Describe(), Does.Not.StartWith("merged cache"));
            Assert.That(EmulatorTestGame.AfsEntry(EmulatorTestGame.ReadAll(fresh), 10), Is.EqualTo(new byte[] { 5 }));
        }
        Assert.That(warnings, Is.Empty);
    }

    [TestCase(100, "lz4")]
    [TestCase(5000, "none")]
    public void Merge_WithAutoCompression_StoresTheCodecTheMeasuredFiguresPick(double deviceMbps, string stored)
    {
        var probes = new CodecProbes { ReadMbps = _ => deviceMbps, Lz4 = () => new Lz4Speed(2500, 0.6) };
        using var emulator = new ArchiveEmulator(_game.Game, new ArchiveEmulatorOptions { CacheFolder = _game["cache"], CodecProbes = probes });
        emulator.AddModFolder(_game.Mod);
        emulator.Merge(Afs);
        Assert.That(emulator.Cache!.Entries().Select(e => e.Merged?.Compression), Has.Some.EqualTo(stored));
    }
}
