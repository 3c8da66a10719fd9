using System.Globalization;
using System.IO.Hashing;
using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache.Folder;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>
/// The cache key is xxHash128 of a description of everything the bytes depend on: each test writes that description
/// itself, for a route resolved the real way, with every file's identity from coreutils' own <c>stat</c>, and checks
/// the key is its hash. A line the key leaves out, or writes otherwise, is a different hash.
/// </summary>
public sealed partial class RouteKeyDescriptionTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        ExternalTool.Require("stat");
        _dir = new TempDirectory("route-key");
    }

    [TearDown]
    public void DeleteFolder() => _dir?.Dispose();

    private static readonly string Header = $"archiveemu-cache {CacheFormat.Version}\n";

    [Test]
    public void AnIndexArchiveWithAModFile_IsDescribedByItsOriginal_TheModsInOrder_AndTheEntryFileByIdentity()
    {
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500), TestData.Random(2, 700), TestData.Random(3, 300)]));
        var dds = _dir.Write("a/data/tex.afs/1_face.dds", TestData.Random(4, 1234));
        Directory.CreateDirectory(_dir["b"]);

        var route = Resolve("a", "b").FindArchive("data/tex.afs")!;

        Assert.That(Key(route, false, "a", "b"), Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {_dir["game/data/tex.afs"]}\noriginal {Stat(_dir["game/data/tex.afs"])}\n"
            + $"mod 0 {_dir["a"]}\nmod 1 {_dir["b"]}\n"
            + $"entry #1 from a: file {dds} [0+1234] {Stat(dds)}\n")));
    }

    [Test]
    public void AModFileChangedAfterRouting_IsDescribedByTheIdentityRoutingTook_NotByANewStat()
    {
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500), TestData.Random(2, 700)]));
        var dds = _dir.Write("a/data/tex.afs/1.dds", TestData.Random(21, 300));
        var routed = Stat(dds);

        var route = Resolve("a").FindArchive("data/tex.afs")!;
        File.AppendAllText(dds, "grown after routing");

        Assert.That(Stat(dds), Is.Not.EqualTo(routed));
        Assert.That(Key(route, false, "a"), Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {_dir["game/data/tex.afs"]}\noriginal {Stat(_dir["game/data/tex.afs"])}\n"
            + $"mod 0 {_dir["a"]}\n"
            + $"entry #1 from a: file {dds} [0+300] {routed}\n")));
    }

    [Test]
    public void WithContentVerified_EveryFileInputCarriesTheXxh3OfItsBytes_AndTheDescriptionSaysSo()
    {
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500), TestData.Random(2, 700)]));
        var dds = _dir.Write("a/data/tex.afs/0.dds", TestData.Random(5, 4321));

        var route = Resolve("a").FindArchive("data/tex.afs")!;

        Assert.That(Key(route, true, "a"), Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {_dir["game/data/tex.afs"]}\noriginal {Stat(_dir["game/data/tex.afs"])}\n"
            + $"mod 0 {_dir["a"]}\n"
            + $"entry #0 from a: file {dds} [0+4321] {Stat(dds)} xxh3 {Xxh3(File.ReadAllBytes(dds))}\n"
            + "content-verified\n")));
    }

    [Test]
    public void ANameArchive_ADeletedEntry_AndAReplacedOne_AreEntriesByName()
    {
        _dir.Write("game/data/model.pak", PakTestWriter.Write(PakTestLayout.All[2],
            [("m0.bin", TestData.Random(6, 100)), ("m1.bin", TestData.Random(7, 200))]));
        _dir.Write("a/data/model.pak/m0.bin.del", []);
        var m1 = _dir.Write("a/data/model.pak/m1.bin", TestData.Random(8, 222));

        var route = Resolve("a").FindArchive("data/model.pak")!;

        Assert.That(Key(route, false, "a"), Is.EqualTo(HashOf(Header + "format pak\n"
            + $"route {_dir["game/data/model.pak"]}\noriginal {Stat(_dir["game/data/model.pak"])}\n"
            + $"mod 0 {_dir["a"]}\n"
            + "entry /m0.bin from a: delete\n"
            + $"entry /m1.bin from a: file {m1} [0+222] {Stat(m1)}\n")));
    }

    [Test]
    public void BytesAddedInCode_AreDescribedByTheirXxh3_EvenWithContentVerified()
    {
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500), TestData.Random(2, 700)]));
        var bytes = TestData.Random(9, 77);
        var router = new ModRouter(_dir["game"], [])
        {
            CodeInputs = [new CodeInput("data/tex.afs", EntryKey.ByIndex(1), EntryInput.FromBytes(bytes), "loader")],
        };

        var route = router.Resolve().FindArchive("data/tex.afs")!;

        Assert.That(RouteKey.For(route, [], verifyContent: true).Hash, Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {_dir["game/data/tex.afs"]}\noriginal {Stat(_dir["game/data/tex.afs"])}\n"
            + $"entry #1 from loader: bytes {Xxh3(bytes)}\n"
            + "content-verified\n")));
    }

    [Test]
    public void AnArchiveInsideAnArchive_IsNestedAfterItsEntry_WithItsFormatAndSliceOfTheOuterFile()
    {
        var inner = PakTestWriter.Write(PakTestLayout.All[2], [("a.tmx", TestData.Random(10, 700)), ("tv.tmx", TestData.Random(11, 400))]);
        var outer = _dir.Write("game/data/init.pak", PakTestWriter.Write(PakTestLayout.All[2], [("init/loading.arc", inner), ("other.bin", TestData.Random(12, 900))]));
        var tv = _dir.Write("mod/data/init.pak/init/loading.arc/tv.tmx", TestData.Random(13, 1234));
        long at = IndexOf(File.ReadAllBytes(outer), inner);

        var route = Resolve("mod").FindArchive("data/init.pak")!;

        Assert.That(Key(route, false, "mod"), Is.EqualTo(HashOf(Header + "format pak\n"
            + $"route {outer}\noriginal {Stat(outer)}\n"
            + $"mod 0 {_dir["mod"]}\n"
            + $"nested /init/loading.arc from nested (mod): pak {at}+{inner.Length}\n"
            + $"entry /tv.tmx from mod: file {tv} [0+1234] {Stat(tv)}\n"
            + "end nested\n")));
    }

    [Test]
    public void AnArchiveInsideAnIndexEntry_IsNestedByThatIndex()
    {
        var inner = PakTestWriter.Write(PakTestLayout.All[2], [("a.tmx", TestData.Random(18, 300))]);
        var outer = _dir.Write("game/data/outer.afs", AfsTestWriter.Write([TestData.Random(19, 500), inner]));
        var tmx = _dir.Write("mod/data/outer.afs/1_inner.pak/a.tmx", TestData.Random(20, 64));
        long at = IndexOf(File.ReadAllBytes(outer), inner);

        var route = Resolve("mod").FindArchive("data/outer.afs")!;

        Assert.That(Key(route, false, "mod"), Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {outer}\noriginal {Stat(outer)}\n"
            + $"mod 0 {_dir["mod"]}\n"
            + $"nested #1 from nested (mod): pak {at}+{inner.Length}\n"
            + $"entry /a.tmx from mod: file {tmx} [0+64] {Stat(tmx)}\n"
            + "end nested\n")));
    }

    [Test]
    public void AGameFolderReadThroughAnotherPath_NamesEveryFileOfItByTheFoldersOwnPath()
    {
        _dir.Write("game/data/tex.afs", AfsTestWriter.Write([TestData.Random(1, 500), TestData.Random(2, 700)]));
        var dds = _dir.Write("a/data/tex.afs/1.dds", TestData.Random(14, 99));
        Directory.CreateSymbolicLink(_dir["view"], _dir["game"]);

        var route = new ModRouter(_dir["view"], [_dir["a"]]).Resolve().FindArchive("data/tex.afs")!;
        var key = RouteKey.For(route, [_dir["a"]], verifyContent: false, new ShownFolder(_dir["view"], _dir["game"]));

        Assert.That(key.Route, Is.EqualTo(_dir["game/data/tex.afs"]));
        Assert.That(key.Hash, Is.EqualTo(HashOf(Header + "format afs\n"
            + $"route {_dir["game/data/tex.afs"]}\noriginal {Stat(_dir["game/data/tex.afs"])}\n"
            + $"mod 0 {_dir["a"]}\n"
            + $"entry #1 from a: file {dds} [0+99] {Stat(dds)}\n")));
    }

    [Test]
    public void AnArchiveDeclaredInsideAGameFile_IsDescribedByItsSliceOfThatFile()
    {
        var awb = AwbTestWriter.Write([TestData.Random(15, 300), TestData.Random(16, 500)]);
        var bgm = _dir.Write("game/data/bgm.cpk", [.. new byte[64], .. awb, .. new byte[32]]);
        var adx = _dir.Write("a/data/bgm.cpk/voice.awb/1.adx", TestData.Random(17, 42));
        var slices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>
        {
            ["data/bgm.cpk/voice.awb"] = (ArchiveSource.Slice(bgm, 64, awb.Length), ArchiveEmu.Core.Formats.Awb.AwbFormat.Instance),
        };

        var route = new ModRouter(_dir["game"], [_dir["a"]], null, slices).Resolve().FindArchive("data/bgm.cpk/voice.awb")!;

        Assert.That(Key(route, false, "a"), Is.EqualTo(HashOf(Header + "format awb\n"
            + $"route {bgm}\nslice 64+{awb.Length}\noriginal {Stat(bgm)}\n"
            + $"mod 0 {_dir["a"]}\n"
            + $"entry #1 from a: file {adx} [0+42] {Stat(adx)}\n")));
    }

    private RoutePlan Resolve(params string[] mods) => new ModRouter(_dir["game"], mods.Select(m => _dir[m]).ToArray()).Resolve();

    private string Key(ArchiveRoute route, bool verifyContent, params string[] mods) =>
        RouteKey.For(route, mods.Select(m => _dir[m]).ToArray(), verifyContent).Hash;

    /// <summary>Size, mtime, ctime (100 ns ticks, truncated) and inode, as coreutils' stat reads them.</summary>
    private static string Stat(string path)
    {
        var result = ExternalTool.Run("stat", "-L", "-c", "%s %.9Y %.9Z %i", path);
        Assert.That(result.ExitCode, Is.Zero, result.StdErr);
        var parts = result.StdOut.Trim().Split(' ');
        return $"{parts[0]} bytes mtime {Ticks(parts[1])} ctime {Ticks(parts[2])} inode {parts[3]}";
    }

    // Unix seconds.nanoseconds to .NET ticks: 100 ns units since 0001-01-01.
    private static long Ticks(string unix)
    {
        var (seconds, nanoseconds) = (unix[..unix.IndexOf('.')], unix[(unix.IndexOf('.') + 1)..]);
        return long.Parse(seconds, CultureInfo.InvariantCulture) * 10_000_000 + long.Parse(nanoseconds, CultureInfo.InvariantCulture) / 100
            + DateTime.UnixEpoch.Ticks;
    }

    private static string HashOf(string description) => Convert.ToHexStringLower(XxHash128.Hash(Encoding.UTF8.GetBytes(description)));

    private static string Xxh3(byte[] bytes) => Convert.ToHexStringLower(XxHash3.Hash(bytes));

    private static long IndexOf(byte[] haystack, byte[] needle)
    {
        long at = haystack.AsSpan().IndexOf(needle);
        Assert.That(at, Is.GreaterThanOrEqualTo(0));
        return at;
    }
}
