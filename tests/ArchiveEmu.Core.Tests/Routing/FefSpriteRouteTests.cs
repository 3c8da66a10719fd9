using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// FEF's <c>FEmulator/SPD/</c> rules at their edges (docs/DESIGN.md, "Reloaded-II and FEF mods"): the extension its SPD emulator
/// requires, SPR folders below other folders, and the sprite folders a PAK's dummy file reaches (FEF's "Sprites in PAK Files").
/// Every SPD and SPR served is re-read by the independent readers.
/// </summary>
public sealed class FefSpriteRouteTests
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolders() => _dir = new TempDirectory("fef-sprites");

    [TearDown]
    public void DeleteFolders() => _dir.Dispose();

    [Test]
    public void AnSpdRoute_NeedsTheSpdExtension_AsFefsSpdEmulatorDoes()
    {
        _dir.Write("game/font/chat.bin", SpdTests.Original());
        _dir.Write("mod/FEmulator/SPD/chat.bin/tex_1.dds", SpdTests.Dds(50));

        var plan = Resolve();
        Assert.That(plan.Archives, Is.Empty);
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/SPD/chat.bin) matches no SPD file"));
    }

    [Test]
    public void AnSprFolderBelowAnother_ChangesTheGameSpr_UnderTheRuleOfFEmulatorSpd()
    {
        _dir.Write("game/event/ui/map.spr", SprTests.Original());
        var tmx = SprTests.Tmx(51, 8);
        _dir.Write("mod/FEmulator/SPD/ui/map.spr/tex_1.tmx", tmx);

        var plan = Resolve();
        Assert.That(plan.Warnings, Is.Empty);
        Assert.That(plan.Archives.Single().Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/SPD/ui/map.spr"));
        var built = SprIndependentReader.Read(Serve("event/ui/map.spr"), "served SPR");
        Assert.That(built.Textures.Select(t => t.Tmx.Bytes),
            Is.EqualTo(SprIndependentReader.Read(SprTests.Original()).Textures.Select(t => t.Tmx.Bytes).Append(tmx)));
    }

    [Test]
    public void TwoSpriteFolders_OneReachedThroughAPakDummy_TheOtherStillChangesItsGameSpd()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        _dir.Write("game/font/chat.spd", SpdTests.Original());
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd", []);
        var inPak = _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", SpdTests.Dds(52));
        var chat = _dir.Write("mod/FEmulator/SPD/chat.spd/tex_1.dds", SpdTests.Dds(53));

        Assert.That(Resolve().Warnings, Is.Empty);
        AssertTexture1Replaced(ReadPak(Serve("data/init_free.bin")).Single().Bytes, File.ReadAllBytes(inPak));
        AssertTexture1Replaced(Serve("font/chat.spd"), File.ReadAllBytes(chat));
    }

    [Test]
    public void TwoSpriteFoldersEndingOnePakEntrysPath_TheLongerWins_TheShorterIsAnSpdRouteOfItsOwn()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd", []);
        _dir.Write("mod/FEmulator/SPD/smap/i_mini_map01.spd/tex_1.dds", SpdTests.Dds(54));
        var longer = _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", SpdTests.Dds(55));

        var plan = Resolve();
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/SPD/smap/i_mini_map01.spd) matches no SPD file"));
        AssertTexture1Replaced(ReadPak(Serve("data/init_free.bin")).Single().Bytes, File.ReadAllBytes(longer));
    }

    [Test]
    public void ASpriteFolderEndingAPakEntrysPathOnTheString_ReachesIt_AsFefComparesAPath()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd", []);
        var dds = _dir.Write("mod/FEmulator/SPD/mini_map01.spd/tex_1.dds", SpdTests.Dds(56));

        Assert.That(Resolve().Warnings, Is.Empty);
        AssertTexture1Replaced(ReadPak(Serve("data/init_free.bin")).Single().Bytes, File.ReadAllBytes(dds));
    }

    [Test]
    public void TexturesReplacedThroughAPakDummy_AreAppendedInOrdinalOrderOfTheirNames()
    {
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/i_mini_map01.spd", SpdTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/i_mini_map01.spd", []);
        var two = _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd/tex_2.dds", SpdTests.Dds(57));
        var one = _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/i_mini_map01.spd/tex_1.dds", SpdTests.Dds(58));

        var built = SpdIndependentReader.Read(ReadPak(Serve("data/init_free.bin")).Single().Bytes, "served SPD");
        var original = SpdIndependentReader.Read(SpdTests.Original(), "original SPD");
        Assert.That(built.Textures.Select(t => t.Dds),
            Is.EqualTo(original.Textures.Select(t => t.Dds).Append(File.ReadAllBytes(one)).Append(File.ReadAllBytes(two))));
    }

    [Test]
    public void ADummyAndASpriteFolderNotNamedLikeASpriteContainer_AreNoSpriteRoute_TheDummyReplacesTheEntry()
    {
        // FEF's SPD emulator takes .spd and .spr files only: the dummy is then a plain PAK entry, the folder a route of its own.
        _dir.Write("game/data/init_free.bin", PakTestWriter.Write(V2, [("smap/sprite.bin", SpdTests.Original())]));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/smap/sprite.bin", [1, 2, 3]);
        _dir.Write("mod/FEmulator/SPD/init_free.bin/smap/sprite.bin/tex_1.dds", SpdTests.Dds(59));

        var plan = Resolve();
        Assert.That(plan.Warnings.Single(), Does.Contain("(FEmulator/SPD/init_free.bin/smap/sprite.bin) matches no SPD file"));
        Assert.That(ReadPak(Serve("data/init_free.bin")).Single(), Is.EqualTo(("smap/sprite.bin", new byte[] { 1, 2, 3 })));
    }

    private RoutePlan Resolve() => new ModRouter(_dir["game"], [_dir["mod"]]).Resolve();

    private byte[] Serve(string route)
    {
        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));
        using var file = game.OpenFile(route);
        return AcbTests.Materialise(file);
    }

    private static void AssertTexture1Replaced(byte[] served, byte[] dds)
    {
        var original = SpdIndependentReader.Read(SpdTests.Original(), "original SPD");
        var built = SpdIndependentReader.Read(served, "served SPD");
        Assert.That(built.Textures.Select(t => t.Dds), Is.EqualTo(original.Textures.Select(t => t.Dds).Append(dds)));
    }

    private List<(string Name, byte[] Bytes)> ReadPak(byte[] pak) => PakIndependentReader.V2Members(pak, _dir);
}
