using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// Issue 19, "Nested, as FEF's PAK docs show": an FEF mod's <c>FEmulator/PAK/&lt;route&gt;/…</c> path through a PAK entry changes
/// the PAK inside it (FEF <c>docs/emulators/pak.md</c>, "PAKs within PAKs"), with FEF's naming: no <c>.del</c> deletion.
/// </summary>
public sealed partial class NestedRouteTests
{
    [Test]
    public void Fef_PakInPak_AsFefsDocsShow_TheInnerEntryIsReplaced_UnderTheFefRule()
    {
        var a = TestData.Random(200, 700);
        var field = TestData.Random(201, 300);
        _dir.Write("game/data/init_free.bin", Pak(("init/loading.arc", Pak(("a.tmx", a), ("mini_tv.tmx", TestData.Random(202, 400)))), ("field/x.tmx", field)));
        var tv = _dir.Write("mod/FEmulator/PAK/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(203, 1234));

        var outer = ReadPak(Serve("data/init_free.bin"));
        Assert.That(outer.Select(m => m.Name), Is.EqualTo(new[] { "init/loading.arc", "field/x.tmx" }));
        Assert.That(outer[1].Bytes, Is.EqualTo(field));
        Assert.That(ReadPak(outer[0].Bytes), Is.EqualTo(new[] { ("a.tmx", a), ("mini_tv.tmx", File.ReadAllBytes(tv)) }));

        var route = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single();
        Assert.That(route.Patch.Changes, Is.Empty);
        var nested = route.Nested.Single();
        Assert.That((nested.Entry.Name, nested.Route.RelativePath, nested.Origin), Is.EqualTo(("init/loading.arc", "data/init_free.bin/init/loading.arc", "nested (mod)")));
        var change = nested.Route.Patch.Changes.Single();
        Assert.That((change.Key.Name, change.Rule, change.Origin), Is.EqualTo(("mini_tv.tmx", "FEmulator/PAK/init_free.bin", "mod")));
    }

    [Test]
    public void Fef_AFileNamedDel_IsAnEntryOfThatName_InTheOuterAndTheInnerPak_NeverADeletion()
    {
        var x = TestData.Random(210, 10);
        var y = TestData.Random(211, 20);
        _dir.Write("game/data/init_free.bin", Pak(("x", x), ("init/loading.arc", Pak(("y", y)))));
        var outerDel = _dir.Write("mod/FEmulator/PAK/init_free.bin/x.del", TestData.Random(212, 30));
        var innerDel = _dir.Write("mod/FEmulator/PAK/init_free.bin/init/loading.arc/y.del", TestData.Random(213, 40));

        var outer = ReadPak(Serve("data/init_free.bin"));
        Assert.That(outer.Select(m => m.Name), Is.EqualTo(new[] { "x", "init/loading.arc", "x.del" }));
        Assert.That((outer[0].Bytes, outer[2].Bytes), Is.EqualTo((x, File.ReadAllBytes(outerDel))));
        Assert.That(ReadPak(outer[1].Bytes), Is.EqualTo(new[] { ("y", y), ("y.del", File.ReadAllBytes(innerDel)) }));
    }

    [Test]
    public void Fef_APathThroughAnEntryThePakDoesNotHave_IsANewEntryWithTheWholePath_AsFefAddsIt()
    {
        _dir.Write("game/data/init_free.bin", Pak(("init/loading.arc", Pak(("a.tmx", TestData.Random(220, 10))))));
        var added = _dir.Write("mod/FEmulator/PAK/init_free.bin/init/missing.arc/mini_tv.tmx", TestData.Random(221, 50));

        var outer = ReadPak(Serve("data/init_free.bin"));
        Assert.That(outer.Select(m => m.Name), Is.EqualTo(new[] { "init/loading.arc", "init/missing.arc/mini_tv.tmx" }));
        Assert.That(outer[1].Bytes, Is.EqualTo(File.ReadAllBytes(added)));
        Assert.That(ReadPak(outer[0].Bytes).Single().Bytes, Is.EqualTo(TestData.Random(220, 10)));
    }

    [Test]
    public void Fef_TwoRoutesIntoOneInnerEntry_TheLongerRouteWins_WithoutAConflict()
    {
        _dir.Write("game/data/init_free.bin", Pak(("init/loading.arc", Pak(("mini_tv.tmx", TestData.Random(230, 10))))));
        _dir.Write("mod/FEmulator/PAK/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(231, 11));
        var longer = _dir.Write("mod/FEmulator/PAK/data/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(232, 12));

        var inner = ReadPak(ReadPak(Serve("data/init_free.bin")).Single().Bytes);
        Assert.That(inner, Is.EqualTo(new[] { ("mini_tv.tmx", File.ReadAllBytes(longer)) }));
        var plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan;
        Assert.That(plan.Archives.Single().Nested.Single().Route.Patch.Changes.Single().Rule, Is.EqualTo("FEmulator/PAK/data/init_free.bin"));
        Assert.That(plan.Conflicts, Is.Empty);
    }

    [Test]
    public void Fef_AfsInPak_FefsDocsSayNothingOfIt_EntriesAreNamedByTheMirrorIndexRule()
    {
        var entries = new[] { TestData.Random(240, 100), TestData.Random(241, 200) };
        _dir.Write("game/data/init_free.bin", Pak(("sound.afs", AfsTestWriter.Write(entries))));
        var voice = _dir.Write("mod/FEmulator/PAK/init_free.bin/sound.afs/1_voice.adx", TestData.Random(242, 300));

        var afs = _dir.Write("out/sound.afs", ReadPak(Serve("data/init_free.bin")).Single().Bytes);
        Assert.That(AfsIndependentReader.Read(afs).Select(e => e.Sha256), Is.EqualTo(new[]
        {
            AfsIndependentReader.Sha256(entries[0]), AfsIndependentReader.Sha256(File.ReadAllBytes(voice)),
        }));
        var change = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]])).Plan.Archives.Single().Nested.Single().Route.Patch.Changes.Single();
        Assert.That((change.Key, change.Rule), Is.EqualTo((EntryKey.ByIndex(1), "FEmulator/PAK/init_free.bin")));
    }

    [Test]
    public void Fef_AMirrorModThenAnFefModInsideOnePak_CombineEachByItsOwnNaming_TheLaterWinsTheEntryTheyShare()
    {
        var keep = TestData.Random(250, 15);
        _dir.Write("game/data/init_free.bin", Pak(("init/loading.arc", Pak(("a.tmx", TestData.Random(251, 10)), ("mini_tv.tmx", TestData.Random(252, 10)), ("keep", keep)))));
        _dir.Write("mirror/data/init_free.bin/init/loading.arc/a.tmx.del", [1]); // the mirror layout's deletion
        _dir.Write("mirror/data/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(253, 20));
        var tv = _dir.Write("fef/FEmulator/PAK/init_free.bin/init/loading.arc/mini_tv.tmx", TestData.Random(254, 30));

        var inner = ReadPak(ReadPak(Serve("data/init_free.bin", "mirror", "fef")).Single().Bytes);
        Assert.That(inner, Is.EqualTo(new[] { ("mini_tv.tmx", File.ReadAllBytes(tv)), ("keep", keep) }));
        var plan = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mirror"], _dir["fef"]])).Plan;
        var conflict = plan.Conflicts.Single();
        Assert.That((conflict.Target, conflict.Entry, conflict.Winner), Is.EqualTo(("data/init_free.bin/init/loading.arc", "mini_tv.tmx", "fef")));
        Assert.That(conflict.Rules, Is.EqualTo(new[] { "mirror", "FEmulator/PAK/init_free.bin" }));
    }
}
