using System.Text;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Serving;

/// <summary>The key's description where one file depends on another: IMG v1's .dir, an ACB following its AWB, a merged Persona table.</summary>
public sealed partial class RouteKeyDescriptionTests
{
    private string ImgV1Game()
    {
        var entries = ImgTests.Entries(3, 40);
        var (img, dir) = ImgV1TestWriter.Write(entries);
        _dir.Write("game/models/gta3.img", img);
        _dir.Write("game/models/gta3.dir", dir);
        return _dir.Write("mod/models/gta3.img/" + entries[0].Name, TestData.Random(41, 5000));
    }

    private string ImgV1Key(string img, string dir, string mod) => $"{Header}format img-v1\nroute {img}\noriginal {Stat(img)}\n"
        + $"companion {dir} {Stat(dir)}\nmod 0 {_dir["mod"]}\n"
        + $"entry /{Path.GetFileName(mod)} from mod: file {mod} [0+5000] {Stat(mod)}\n";

    [Test]
    public void AnImgV1_NamesItsDirAsACompanion_AndTheDirFollowsTheImg()
    {
        var mod = ImgV1Game();
        string img = _dir["game/models/gta3.img"], dir = _dir["game/models/gta3.dir"];

        var plan = Resolve("mod");

        Assert.That(Key(plan.FindArchive("models/gta3.img")!, false, "mod"), Is.EqualTo(HashOf(ImgV1Key(img, dir, mod))));
        Assert.That(Key(plan.FindArchive("models/gta3.dir")!, false, "mod"), Is.EqualTo(HashOf(
            $"{Header}format img-v1\nroute {dir}\noriginal {Stat(dir)}\nmod 0 {_dir["mod"]}\n"
            + $"follows models/gta3.img\n{ImgV1Key(img, dir, mod)}end follows\n")));
    }

    [Test]
    public void TouchingOnlyTheDirsTimes_ChangesTheImgsKey()
    {
        ImgV1Game();
        var dir = _dir["game/models/gta3.dir"];
        string Img() => Key(Resolve("mod").FindArchive("models/gta3.img")!, false, "mod");
        var before = Img();

        File.SetLastWriteTimeUtc(dir, File.GetLastWriteTimeUtc(dir).AddSeconds(-5));

        Assert.That(Img(), Is.Not.EqualTo(before));
    }

    [Test]
    public void AnAcbBesideAStreamedAwb_FollowsIt_WithTheAwbsWholeDescriptionInside()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(3)));
        var acb = _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(StreamAwb: File.ReadAllBytes(awb))));
        var hca = _dir.Write("mod/sound/bgm.awb/1_theme.hca", TestData.Random(42, 3000));

        var plan = Resolve("mod");

        var awbKey = $"{Header}format awb\nroute {awb}\noriginal {Stat(awb)}\nmod 0 {_dir["mod"]}\n"
            + $"entry #1 from mod: file {hca} [0+3000] {Stat(hca)} xxh3 {Xxh3(File.ReadAllBytes(hca))}\ncontent-verified\n";
        Assert.That(Key(plan.FindArchive("sound/bgm.acb")!, true, "mod"), Is.EqualTo(HashOf(
            $"{Header}format acb\nroute {acb}\noriginal {Stat(acb)}\nmod 0 {_dir["mod"]}\n"
            + $"follows sound/bgm.awb\n{awbKey}end follows\ncontent-verified\n")));
    }

    [Test]
    public void AMergedPersonaTable_IsDescribedRunByRun_FilesByIdentity_BytesByXxh3_ZerosAsSuch()
    {
        var game = new[] { new byte[68 * 8], new byte[2 * 40], new byte[2 * 40], TestData.Random(3, 17), new byte[2 * 20], TestData.Random(4, 50) };
        var a = game.Select(s => s.ToArray()).ToArray();
        a[0][68 * 2 + 30] = 0x11;
        var b = game.Select(s => s.ToArray()).ToArray();
        b[0][68 * 5 + 50] = 0x44;
        b[5] = [.. b[5], 1, 2, 3];
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        var cpk = _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(game))]));
        _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(a));
        _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(b));

        var route = Resolve("a", "b").FindArchive("CPK/EN.CPK")!;
        var change = route.Patch.Changes.Single();
        var merged = change.Input!.File!;

        var kinds = new HashSet<string>();
        var text = new StringBuilder($"{Header}format cpk\nroute {cpk}\noriginal {Stat(cpk)}\nmod 0 {_dir["a"]}\nmod 1 {_dir["b"]}\n");
        text.Append($"entry /BATTLE/TABLE/UNIT.TBL from {change.Origin}: virtual {merged.Length}");
        foreach (var run in merged.Segments.ToArray())
        {
            var served = new byte[run.Length];
            merged.ReadExactly(run.VirtualOffset, served);
            text.Append($" | {run.Length} ");
            switch (run.Source)
            {
                case FileSource source: // by where it reads, checked against the file's own bytes there
                    var there = File.ReadAllBytes(source.Path).AsSpan((int)run.SourceOffset, (int)run.Length).ToArray();
                    Assert.That(served, Is.EqualTo(there));
                    text.Append($"file {source.Path} @{run.SourceOffset} {Stat(source.Path)}");
                    kinds.Add("file");
                    break;
                case ZeroSource:
                    Assert.That(served, Is.All.Zero);
                    text.Append("zeros");
                    kinds.Add("zeros");
                    break;
                default:
                    text.Append($"bytes {Xxh3(served)}");
                    kinds.Add("bytes");
                    break;
            }
        }
        var whole = new byte[merged.Length];
        merged.ReadExactly(0, whole);
        text.Append($" xxh3 {Xxh3(whole)}\ncontent-verified\n");

        Assert.That(kinds, Is.SupersetOf(new[] { "file", "bytes" }), "a run of each kind the merged table has");
        Assert.That(Key(route, true, "a", "b"), Is.EqualTo(HashOf(text.ToString())));
    }
}
