using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Archives inside archives, found from the mod folder's path alone (docs/DESIGN.md, "Archives inside archives"): every
/// emulated level is read back with an independent reader and compared with the bytes it should hold.
/// </summary>
public sealed partial class NestedRouteTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders() => _dir = new TempDirectory("nested");

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    private static byte[] Pak(params (string Name, byte[] Data)[] entries) => PakTestWriter.Write(V2, entries);
    private static byte[] Text(string s) => Encoding.ASCII.GetBytes(s);

    [Test]
    public void PakInPak_TheInnerEntryIsReplacedAndAdded_OtherEntriesKeepTheirBytes()
    {
        var a = TestData.Random(1, 700);
        var other = TestData.Random(2, 900);
        _dir.Write("game/data/init.pak", Pak(("init/loading.arc", Pak(("a.tmx", a), ("mini_tv.tmx", TestData.Random(3, 400))) ), ("init/other.bin", other)));
        var tv = _dir.Write("mod/data/init.pak/init/loading.arc/mini_tv.tmx", TestData.Random(4, 1234));
        var added = _dir.Write("mod/data/init.pak/init/loading.arc/new.tmx", TestData.Random(5, 55));

        var outer = ReadPak(Serve("data/init.pak"));
        Assert.That(outer.Select(m => m.Name), Is.EqualTo(new[] { "init/loading.arc", "init/other.bin" }));
        Assert.That(outer[1].Bytes, Is.EqualTo(other));
        var inner = ReadPak(outer[0].Bytes);
        Assert.That(inner.Select(m => (m.Name, m.Bytes)), Is.EqualTo(new[]
        {
            ("a.tmx", a), ("mini_tv.tmx", File.ReadAllBytes(tv)), ("new.tmx", File.ReadAllBytes(added)),
        }));
    }

    [Test]
    public void AfsInPak_TheInnerAfsIsRebuiltAroundTheModEntry()
    {
        var entries = new[] { TestData.Random(10, 3000), TestData.Random(11, 100), TestData.Random(12, 5000) };
        _dir.Write("game/data/init.pak", Pak(("first.bin", TestData.Random(13, 10)), ("sound.afs", AfsTestWriter.Write(entries))));
        var voice = _dir.Write("mod/data/init.pak/sound.afs/1_voice.adx", TestData.Random(14, 4321));

        var outer = ReadPak(Serve("data/init.pak"));
        var afs = _dir.Write("out/sound.afs", outer.Single(m => m.Name == "sound.afs").Bytes);
        Assert.That(AfsIndependentReader.Read(afs).Select(e => e.Sha256), Is.EqualTo(new[]
        {
            AfsIndependentReader.Sha256(entries[0]), AfsIndependentReader.Sha256(File.ReadAllBytes(voice)), AfsIndependentReader.Sha256(entries[2]),
        }));
    }

    [Test]
    public void StoredZipInTar_ReadBackByPythonsTarfileAndZipfile()
    {
        var zip = InFolder("work/ui.zip");
        DotNetArchiveWriters.WriteZip(zip, ("menu/title.png", TestData.Random(20, 2000), false), ("menu/deflated.txt", DotNetArchiveWriters.Repeat(Text("abc"), 500), true));
        var readme = TestData.Random(21, 300);
        DotNetArchiveWriters.WriteTar(InFolder("game/data/bundle.tar"), ("pack/ui.zip", File.ReadAllBytes(zip)), ("pack/readme.bin", readme));
        var title = _dir.Write("mod/data/bundle.tar/pack/ui.zip/menu/title.png", TestData.Random(22, 2500));

        var tar = _dir.Write("out/bundle.tar", Serve("data/bundle.tar"));
        var listing = ExternalTool.Python("""
import hashlib, io, sys, tarfile, zipfile
with tarfile.open(sys.argv[1]) as t:
    for m in t.getmembers():
        data = t.extractfile(m).read()
        print(m.name, hashlib.sha256(data).hexdigest())
        if m.name.endswith('.zip'):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                assert z.testzip() is None
                for i in z.infolist():
                    print(' ', i.filename, hashlib.sha256(z.read(i)).hexdigest())
""", tar);
        Assert.That(listing.ExitCode, Is.Zero, listing.ToString());
        var lines = listing.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines.Skip(1).Take(2), Is.EqualTo(new[]
        {
            $"  menu/title.png {AfsIndependentReader.Sha256(File.ReadAllBytes(title))}",
            $"  menu/deflated.txt {AfsIndependentReader.Sha256(DotNetArchiveWriters.Repeat(Text("abc"), 500))}",
        }));
        Assert.That(lines[0], Does.StartWith("pack/ui.zip "));
        Assert.That(lines[^1], Is.EqualTo($"pack/readme.bin {AfsIndependentReader.Sha256(readme)}"));
    }

    [Test]
    public void StoredPakInZip_TheZipsCrcIsOfTheEmulatedInnerArchive()
    {
        DotNetArchiveWriters.WriteZip(InFolder("game/data/pack.zip"), ("in.pak", Pak(("x", TestData.Random(80, 300)), ("y", TestData.Random(81, 30))), false),
            ("notes.txt", DotNetArchiveWriters.Repeat(Text("notes "), 100), true));
        var x = _dir.Write("mod/data/pack.zip/in.pak/x", TestData.Random(82, 333));

        var zip = _dir.Write("out/pack.zip", Serve("data/pack.zip"));
        var inner = _dir["out/in.pak"];
        var check = ExternalTool.Python("""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    assert z.testzip() is None, 'bad CRC'
    assert [i.filename for i in z.infolist()] == ['in.pak', 'notes.txt']
    open(sys.argv[2], 'wb').write(z.read('in.pak'))
""", zip, inner);
        Assert.That(check.ExitCode, Is.Zero, check.ToString());
        Assert.That(ReadPak(File.ReadAllBytes(inner)).Select(m => (m.Name, m.Bytes)), Is.EqualTo(new[] { ("x", File.ReadAllBytes(x)), ("y", TestData.Random(81, 30)) }));
    }

    [Test]
    public void ATarFolderEntry_WithoutItsSlash_IsNoArchiveToGoThrough_ANewFileBelowItIsAdded()
    {
        using (var file = File.Create(InFolder("game/data/bundle.tar")))
        using (var tar = new System.Formats.Tar.TarWriter(file, System.Formats.Tar.TarEntryFormat.Ustar))
        {
            tar.WriteEntry(new System.Formats.Tar.UstarTarEntry(System.Formats.Tar.TarEntryType.Directory, "pack"));
            tar.WriteEntry(new System.Formats.Tar.UstarTarEntry(System.Formats.Tar.TarEntryType.RegularFile, "pack/a.bin") { DataStream = new MemoryStream(TestData.Random(90, 10)) });
        }
        _dir.Write("mod/data/bundle.tar/pack/new.bin", TestData.Random(91, 10));
        var route = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single();
        Assert.That((route.Nested.Count, route.Patch.Changes.Single().Key.Name), Is.EqualTo((0, "pack/new.bin")));
    }

    [Test]
    public void DepthThree_PakInAfsInPakInPak_IndexFolderNamedLikeItsEntryFile()
    {
        var voice = TestData.Random(30, 640);
        var afs = AfsTestWriter.Write([TestData.Random(31, 100), TestData.Random(32, 200), Pak(("voice.bin", voice), ("keep.bin", TestData.Random(33, 10)))]);
        _dir.Write("game/data/init.pak", Pak(("init/loading.arc", Pak(("sound.afs", afs))), ("tail.bin", TestData.Random(34, 20))));
        var newVoice = _dir.Write("mod/data/init.pak/init/loading.arc/sound.afs/2_voice.pak/voice.bin", TestData.Random(35, 999));
        var first = _dir.Write("mod2/data/init.pak/init/loading.arc/sound.afs/0.adx", TestData.Random(36, 77));

        var outer = ReadPak(Serve("data/init.pak", "mod", "mod2"));
        var level2 = ReadPak(outer[0].Bytes);
        var level3 = _dir.Write("out/sound.afs", level2.Single().Bytes);
        var afsEntries = AfsIndependentReader.Read(level3);
        Assert.That(afsEntries[0].Sha256, Is.EqualTo(AfsIndependentReader.Sha256(File.ReadAllBytes(first))));
        var level4 = ReadPak(File.ReadAllBytes(level3).AsSpan((int)afsEntries[2].Offset, (int)afsEntries[2].Size).ToArray());
        Assert.That(level4.Select(m => (m.Name, m.Bytes)), Is.EqualTo(new[] { ("voice.bin", File.ReadAllBytes(newVoice)), ("keep.bin", TestData.Random(33, 10)) }));
        Assert.That(outer[1].Bytes, Is.EqualTo(TestData.Random(34, 20)));
    }

    [Test]
    public void IndexFolderNamedByIndexAlone_ReachesTheInnerArchive()
    {
        _dir.Write("game/data/snd.afs", AfsTestWriter.Write([TestData.Random(40, 10), Pak(("x.bin", TestData.Random(41, 30)))]));
        var x = _dir.Write("mod/data/snd.afs/1/x.bin", TestData.Random(42, 31));
        var afs = _dir.Write("out/snd.afs", Serve("data/snd.afs"));
        var entry = AfsIndependentReader.Read(afs)[1];
        var inner = ReadPak(File.ReadAllBytes(afs).AsSpan((int)entry.Offset, (int)entry.Size).ToArray());
        Assert.That(inner.Single().Bytes, Is.EqualTo(File.ReadAllBytes(x)));
    }

    [Test]
    public void Resolution_ExactEntryNameWins_ThenTheLongestArchivePrefix_ElseANewEntryWithTheWholePath()
    {
        _dir.Write("game/data/p.pak", Pak(
            ("a", Pak(("b/x", TestData.Random(50, 10)))),
            ("a/b", Pak(("x", TestData.Random(51, 10)))),
            ("c", Pak(("d", TestData.Random(52, 10)))),
            ("c/d", TestData.Random(53, 10))));
        var ab = _dir.Write("mod/data/p.pak/a/b/x", TestData.Random(54, 11)); // "a/b" is longer than "a": it takes "x"
        var cd = _dir.Write("mod/data/p.pak/c/d", TestData.Random(55, 12)); // an exact entry name: replaced whole
        var fresh = _dir.Write("mod/data/p.pak/e/f", TestData.Random(56, 13)); // no such entry, nor prefix: added whole

        var outer = ReadPak(Serve("data/p.pak"));
        Assert.That(outer.Select(m => m.Name), Is.EqualTo(new[] { "a", "a/b", "c", "c/d", "e/f" }));
        Assert.That(ReadPak(outer[0].Bytes).Single().Bytes, Is.EqualTo(TestData.Random(50, 10)), "'a' untouched");
        Assert.That(ReadPak(outer[1].Bytes).Single().Bytes, Is.EqualTo(File.ReadAllBytes(ab)));
        Assert.That(ReadPak(outer[2].Bytes).Single().Bytes, Is.EqualTo(TestData.Random(52, 10)), "'c' untouched");
        Assert.That(outer[3].Bytes, Is.EqualTo(File.ReadAllBytes(cd)));
        Assert.That(outer[4].Bytes, Is.EqualTo(File.ReadAllBytes(fresh)));

        var route = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single();
        Assert.That(route.Nested.Select(n => (n.Entry.ToString(), n.Route.RelativePath)), Is.EqualTo(new[] { ("a/b", "data/p.pak/a/b") }));
        Assert.That(route.Patch.Changes.Select(c => c.Key.ToString()), Is.EquivalentTo(new[] { "c/d", "e/f" }));
    }

    [Test]
    public void EmulatedEntry_OfANestedArchive_IsReplacedWithANestedOrigin()
    {
        _dir.Write("game/data/init.pak", Pak(("in.pak", Pak(("x", TestData.Random(60, 10))))));
        _dir.Write("mod/data/init.pak/in.pak/x", TestData.Random(61, 10));
        using var archive = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).OpenArchive("data/init.pak");
        var entry = archive.Entries.Single();
        Assert.That((entry.State, entry.Origin), Is.EqualTo((EntryState.Replaced, "nested (mod)")));
    }

    [Test]
    public void Priority_ChangesInsideFromSeveralModsCombine_AWholeReplacementOfTheEntryIsAConflictTheLaterWins()
    {
        _dir.Write("game/data/init.pak", Pak(("in.pak", Pak(("x", TestData.Random(70, 10)), ("y", TestData.Random(71, 10))))));
        _dir.Write("a/data/init.pak/in.pak/x", TestData.Random(72, 10));
        _dir.Write("b/data/init.pak/in.pak/y", TestData.Random(73, 10));
        _dir.Write("b/data/init.pak/in.pak/x", TestData.Random(74, 10));
        var plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["a"], _dir["b"]])).Plan;
        var inner = plan.Archives.Single().Nested.Single();
        Assert.That(inner.Origin, Is.EqualTo("nested (a, b)"));
        Assert.That(inner.Route.Patch.Changes.Select(c => (c.Key.Name, c.Origin)), Is.EquivalentTo(new[] { ("x", "b"), ("y", "b") }));
        Assert.That(plan.Conflicts.Select(c => (c.Target, c.Entry, c.Winner)), Is.EqualTo(new[] { ("data/init.pak/in.pak", "x", "b") }));

        _dir.Write("c/data/init.pak/in.pak", TestData.Random(75, 10)); // a whole file at the entry, from a later mod
        plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["a"], _dir["c"]])).Plan;
        Assert.That(plan.Archives.Single().Nested, Is.Empty);
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Origin, Is.EqualTo("c"));
        Assert.That(plan.Conflicts.Select(c => (c.Target, c.Entry, c.Winner)), Is.EqualTo(new[] { ("data/init.pak", "in.pak", "c") }));

        plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["c"], _dir["a"]])).Plan; // the other order: the changes inside win
        Assert.That(plan.Archives.Single().Nested.Single().Origin, Is.EqualTo("nested (a)"));
        Assert.That(plan.Archives.Single().Patch.Changes, Is.Empty);
        Assert.That(plan.Conflicts.Select(c => (c.Target, c.Entry, c.Winner)), Is.EqualTo(new[] { ("data/init.pak", "in.pak", "a") }));
    }

    [Test]
    public void AutoMerge_CountsANestedArchiveByItsModFiles_NotAsOneInjectedFileOfItsWholeSize()
    {
        _dir.Write("game/data/init.pak", Pak(("in.pak", Pak(("big", TestData.Random(100, 3 << 20)), ("x", TestData.Random(101, 10)))), ("z", TestData.Random(102, 10))));
        _dir.Write("mod/data/init.pak/in.pak/x", TestData.Random(103, 2000));
        using var archive = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).OpenArchive("data/init.pak");
        Assert.That(archive.Entries[0].Size, Is.GreaterThan(3 << 20));
        var decision = ArchiveEmu.Core.MergedCache.Policy.MergeDecider.Decide(ArchiveEmu.Core.MergedCache.Policy.MergePolicy.Auto, new ArchiveEmu.Core.MergedCache.Policy.MergeThresholds(),
            archive, ArchiveEmu.Core.MergedCache.Policy.StorageKind.Unknown);
        Assert.That(decision.Merge, Is.True, decision.Reason);
        Assert.That(decision.Reason, Does.Contain($"injected files ≤ {Units.Bytes(2000)} <"), decision.Reason);
    }

    [TestCase("data/p.pak/readme.txt/x.bin", "data/p.pak/readme.txt")]
    [TestCase("data/snd.afs/0/x.bin", "data/snd.afs/0")]
    [TestCase("data/snd.afs/1_x.pak/y/z.bin", "data/snd.afs/1_x.pak/y")]
    public void AnInnerEntryThatIsNoKnownArchive_IsOneErrorNamingThePath(string modFile, string named)
    {
        _dir.Write("game/data/p.pak", Pak(("readme.txt", Text("just text, not an archive at all"))));
        _dir.Write("game/data/snd.afs", AfsTestWriter.Write([Text("plain text entry, no archive"), Pak(("y", Text("text again, not an archive")))]));
        _dir.Write("mod/" + modFile, [1, 2, 3]);
        Assert.That(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(named).And.Message.Contains("not an archive format ArchiveEmu knows")
                .And.Message.Not.Contains("\n"));
    }

    [Test]
    public void APathThroughAnInnerEntry_IsRefusedWithOneLine_WordForWord()
    {
        _dir.Write("game/data/p.pak", Pak(("a", Text("a plain file, no archive")), ("a/b", Text("another plain file, no archive")),
            ("readme.txt", Text("just text, not an archive at all"))));
        _dir.Write("game/data/snd.afs", AfsTestWriter.Write([Text("plain text entry, no archive"), Text("another one")]));
        string known = ArchiveEmu.Core.Formats.ArchiveFormats.KnownNames;
        foreach (var (modFile, line) in new[]
        {
            ("data/p.pak/readme.txt/x.bin", $"data/p.pak/readme.txt: mod file {{0}} goes through it, but it is not an archive format ArchiveEmu knows ({known})"),
            // Two plain entries on the way: the deepest is named.
            ("data/p.pak/a/b/c.bin", $"data/p.pak/a/b: mod file {{0}} goes through it, but it is not an archive format ArchiveEmu knows ({known})"),
            ("data/snd.afs/9/x.bin", "data/snd.afs/9: mod file {0} goes through entry 9, but the archive has 2 entries"),
        })
        {
            var file = _dir.Write("mod/" + modFile, [1, 2, 3]);
            Assert.That(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])),
                Throws.InstanceOf<ArchiveFormatException>().With.Message.StartWith(string.Format(line, file) + " (at offset"), modFile);
            File.Delete(file);
        }
    }

    [Test]
    public void AnInnerArchiveStoredDeflated_IsDecodedAndChanged()
    {
        DotNetArchiveWriters.WriteZip(InFolder("game/pack.zip"), ("inner.pak", Pak(("x", DotNetArchiveWriters.Repeat(Text("compress me "), 400))), true));
        _dir.Write("mod/pack.zip/inner.pak/x", [1]);
        using var zip = new System.IO.Compression.ZipArchive(new MemoryStream(Serve("pack.zip")));
        using var inner = new MemoryStream();
        zip.GetEntry("inner.pak")!.Open().CopyTo(inner);
        Assert.That(ReadPak(inner.ToArray()).Select(m => (m.Name, m.Bytes)), Is.EqualTo(new[] { ("x", new byte[] { 1 }) }));
    }

    [Test]
    public void AnInnerArchiveStoredWithAMethodNoCodecDecodes_IsRefusedNamingThePath()
    {
        DotNetArchiveWriters.WriteZip(InFolder("game/pack.zip"), ("inner.pak", Pak(("x", Text("bzip2 says the header"))), false));
        var bytes = File.ReadAllBytes(_dir["game/pack.zip"]);
        int central = bytes.AsSpan().LastIndexOf("PK\u0001\u0002"u8);
        bytes[central + 10] = 12; // the central record's method: bzip2
        File.WriteAllBytes(_dir["game/pack.zip"], bytes);
        _dir.Write("mod/pack.zip/inner.pak/x", [1]);
        Assert.That(() => EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])),
            Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains("pack.zip/inner.pak").And.Message.Contains("ZIP method 12"));
    }

    [Test]
    public void AModPathIntoAGameArchiveWhoseIndexIsDamaged_IsAnEntryName_AndServingItIsOneErrorNamingTheFile()
    {
        // The header says CPK, the table under it is not one: resolving does not fail on it, building reports the damage.
        byte[] damaged = [.. "CPK "u8, 0, 0, 0, 0, .. BitConverter.GetBytes(0x40L), .. "@UTF"u8, .. Enumerable.Repeat((byte)0xFF, 0x40)];
        var cpk = _dir.Write("game/data/damaged.cpk", damaged);
        _dir.Write("mod/data/damaged.cpk/ui/x.bin/y.bin", [1, 2, 3]);

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        var route = game.Plan.Archives.Single();
        Assert.That((route.RelativePath, route.Nested.Count), Is.EqualTo(("data/damaged.cpk", 0)));
        Assert.That(route.Patch.Changes.Select(c => c.Key.ToString()), Is.EqualTo(new[] { "ui/x.bin/y.bin" }));
        Assert.That(() => game.OpenFile("data/damaged.cpk").Dispose(), Throws.InstanceOf<ArchiveFormatException>().With.Message.Contains(cpk));
    }

    private string InFolder(string relative)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_dir[relative])!);
        return _dir[relative];
    }

    private byte[] Serve(string route, params string[] mods)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], (mods.Length == 0 ? ["mod"] : mods).Select(m => _dir[m]).ToArray()));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    private List<(string Name, byte[] Bytes)> ReadPak(byte[] pak) => PakIndependentReader.V2Members(pak, _dir);
}
