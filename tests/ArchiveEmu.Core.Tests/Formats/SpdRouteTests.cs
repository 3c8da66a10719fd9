using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Issue 22, SPD routes: a game SPD through FEF's <c>FEmulator/SPD/&lt;path&gt;.spd/</c>, an SPD inside a PAK through the nested route
/// and through FEF's published PAK convention (a dummy file in <c>FEmulator/PAK/</c> plus the sprite folder in <c>FEmulator/SPD/</c>).
/// Every SPD served is re-read by <see cref="SpdIndependentReader"/>.
/// </summary>
public sealed class SpdRouteTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders() => _dir = new TempDirectory("spd-routes");

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    private byte[] Serve(string route)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return bytes;
    }

    private List<(string Name, byte[] Bytes)> ReadPak(byte[] pak) => PakIndependentReader.V2Members(pak, _dir);

    private void AssertTexture1Replaced(byte[] served, byte[] dds)
    {
        var original = SpdIndependentReader.Read(SpdTests.Original(), "original SPD");
        var built = SpdIndependentReader.Read(served, "served SPD");
        Assert.That(built.Textures.Select(t => t.Dds), Is.EqualTo(original.Textures.Select(t => t.Dds).Append(dds)));
        Assert.That(built.Sprites.Select(s => s.TextureId), Is.EqualTo(new[] { 0, 0, 3, 3, 3, 2 }));
    }

    [Test]
    public void FemulatorSpdFolder_ChangesEveryGameSpdWhosePathEndsWithIt()
    {
        _dir.Write("game/font/chat/chat.spd", SpdTests.Original());
        var dds = SpdTests.Dds(30);
        _dir.Write("mod/FEmulator/SPD/chat/chat.spd/tex_1.dds", dds);
        AssertTexture1Replaced(Serve("font/chat/chat.spd"), dds);
        var change = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single().Patch.Changes.Single();
        Assert.That((change.Key.Name, change.Rule), Is.EqualTo(("tex_1.dds", "FEmulator/SPD/chat/chat.spd")));
    }

    [Test]
    public void SpdInsideAPak_TheNestedMirrorRoute_ChangesTheInnerSpd_OtherMembersKeepTheirBytes()
    {
        var other = TestData.Random(31, 300);
        _dir.Write("game/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original()), ("field/x.tmx", other)]));
        var dds = SpdTests.Dds(32);
        _dir.Write("mod/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", dds);
        var members = ReadPak(Serve("init_free.bin"));
        Assert.That(members.Select(m => m.Name), Is.EqualTo(new[] { "smap/i_mini_map01.spd", "field/x.tmx" }));
        Assert.That(members[1].Bytes, Is.EqualTo(other));
        AssertTexture1Replaced(members[0].Bytes, dds);
    }

    [Test]
    public void SpdInsideAPak_FefsDummyFileConvention_EmulatesTheEntryFromTheSpriteFolder_TheDummyIsNotServed()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd", []);
        var dds = SpdTests.Dds(33);
        _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", dds);

        AssertTexture1Replaced(ReadPak(Serve("data/init_free.bin")).Single().Bytes, dds);
        var plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan;
        var nested = plan.Archives.Single().Nested.Single();
        Assert.That(nested.Route.Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd"));
        Assert.That(plan.Warnings, Is.Empty);
    }

    private static void AssertSprTexture1Replaced(byte[] served, byte[] tmx)
    {
        var original = SprIndependentReader.Read(SprTests.Original(), "original SPR");
        var built = SprIndependentReader.Read(served, "served SPR");
        Assert.That(built.Textures.Select(t => t.Tmx.Bytes), Is.EqualTo(original.Textures.Select(t => t.Tmx.Bytes).Append(tmx)));
        Assert.That(built.Sprites.Select(s => s.TextureIndex), Is.EqualTo(new[] { 0, 2, 2 }));
    }

    [Test]
    public void FemulatorSpdFolder_NamedLikeAnSpr_ChangesTheGameSpr_WithTmxTextures_AndTheSpdBesideItToo()
    {
        _dir.Write("game/event/map.spr", SprTests.Original());
        _dir.Write("game/font/chat.spd", SpdTests.Original());
        var tmx = SprTests.Tmx(40, 8);
        var dds = SpdTests.Dds(41);
        _dir.Write("mod/FEmulator/SPD/map.spr/tex_1.tmx", tmx);
        _dir.Write("mod/FEmulator/SPD/chat.spd/tex_1.dds", dds);
        AssertSprTexture1Replaced(Serve("event/map.spr"), tmx);
        AssertTexture1Replaced(Serve("font/chat.spd"), dds);
        Assert.That(EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Warnings, Is.Empty);
    }

    [Test]
    public void SprInsideAPak_FefsDummyFileConvention_AsTheIssueWritesIt()
    {
        _dir.Write("game/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spr", SprTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spr", []);
        var tmx = SprTests.Tmx(42, 8);
        _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spr/tex_1.tmx", tmx);
        AssertSprTexture1Replaced(ReadPak(Serve("init_free.bin")).Single().Bytes, tmx);
    }

    [Test]
    public void SpdInsideAPak_TheNestedFemulatorPakRoute_ChangesTheInnerSpd()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        var dds = SpdTests.Dds(34);
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", dds);
        AssertTexture1Replaced(ReadPak(Serve("data/init_free.bin")).Single().Bytes, dds);
    }
}
