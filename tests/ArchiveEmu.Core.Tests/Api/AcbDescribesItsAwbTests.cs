using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Tests.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// Issue 48, "An ACB follows only the AWB it describes": an ACB is rebuilt for an AWB only when its header copy equals that
/// AWB's original header (FileEmulationFramework's AcbPatcherEmulator injects only when the two hashes match). FEF's own
/// test assets have that shape: arg.acb describes a 2-entry bgm_01.awb and sits beside a 5-entry one of the same name;
/// ArchiveEmu rewrote it (copy 34 → 52 bytes, 5 entries), FEF leaves it. The AWBs here are written by the tests, not FEF's.
/// </summary>
public sealed class AcbDescribesItsAwbTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("api-acb-describes");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    [Test]
    public void AnAcbNamedLikeTheAwb_DescribingAnotherAwb_IsServedAsItIs_WithOneLine()
    {
        _dir.Write("game/sound/bgm_01.awb", AwbTestWriter.Write(AcbTests.Entries(5)));
        var acb = _dir.Write("game/sound/bgm_01.acb", AcbTestWriter.Write(new(Name: "bgm_01", StreamAwb: AwbTestWriter.Write(AcbTests.Entries(2)))));
        _dir.Write("mod/sound/bgm_01.awb/1.hca", TestData.Random(330, 2000));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm_01.awb" }));
        Assert.That(game.Plan.Warnings, Is.EqualTo(new[] { "sound/bgm_01.acb: does not follow sound/bgm_01.awb: its AWB header copy (32 bytes, 2 entries) "
            + "is not the AWB's original header (50 bytes, 5 entries), so it describes another AWB (FileEmulationFramework leaves it too); "
            + "the AWB is served emulated, the ACB as it is" }));
        using var served = game.OpenFile("sound/bgm_01.acb");
        Assert.That(AcbTests.Materialise(served), Is.EqualTo(File.ReadAllBytes(acb)));
    }

    [Test]
    public void AnAcbWhoseOnlyRowNamesAnotherAwb_AndDescribesAnother_IsServedAsItIs()
    {
        _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(4)));
        var acb = _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(Name: "other", StreamAwb: AwbTestWriter.Write(AcbTests.Entries(3)))));
        _dir.Write("mod/sound/bgm.awb/0.hca", TestData.Random(331, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm.awb" }));
        Assert.That(game.Plan.Warnings.Single(), Does.StartWith("sound/bgm.acb: does not follow sound/bgm.awb: its AWB header copy (").And.Contain("describes another AWB"));
        using var served = game.OpenFile("sound/bgm.acb");
        Assert.That(AcbTests.Materialise(served), Is.EqualTo(File.ReadAllBytes(acb)));
    }

    [Test]
    public void AnAcbWhoseOnlyRowNamesAnotherAwb_ButHoldsThisAwbsHeader_Follows()
    {
        var awb = _dir.Write("game/sound/bgm.awb", AwbTestWriter.Write(AcbTests.Entries(4)));
        var acb = _dir.Write("game/sound/bgm.acb", AcbTestWriter.Write(new(Name: "other", StreamAwb: File.ReadAllBytes(awb))));
        _dir.Write("mod/sound/bgm.awb/0.hca", TestData.Random(332, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings, Is.Empty);
        Assert.That(game.Plan.Archives.Select(a => a.RelativePath), Is.EqualTo(new[] { "sound/bgm.acb", "sound/bgm.awb" }));
        using var servedAwb = game.OpenFile("sound/bgm.awb");
        using var servedAcb = game.OpenFile("sound/bgm.acb");
        AcbFollowCheck.AssertFollows(acb, _dir.Write("out.acb", AcbTests.Materialise(servedAcb)), AcbTests.Materialise(servedAwb), _dir);
    }

    [Test]
    public void InsideACpk_AnAcbEntryDescribingAnotherAwb_IsServedAsItIs_WithOneLine()
    {
        var awb = AwbTestWriter.Write(AcbTests.Entries(5));
        var acb = AcbTestWriter.Write(new(StreamAwb: AwbTestWriter.Write(AcbTests.Entries(2))));
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed([new("sound", "bgm.acb", acb), new("sound", "bgm.awb", awb)]));
        _dir.Write("mod/data/data.cpk/sound/bgm.awb/0.hca", TestData.Random(333, 900));

        var game = EmulatedGame.Open(new GameSetup(_dir["game"], [_dir["mod"]]));

        Assert.That(game.Plan.Warnings.Single(), Does.StartWith("data/data.cpk/sound/bgm.acb: does not follow data/data.cpk/sound/bgm.awb: its AWB header copy (32 bytes, 2 entries)")
            .And.EndWith("; the AWB is served emulated, the ACB as it is"));
        Assert.That(game.Plan.Archives.Single().Nested.Select(n => n.Entry.ToString()), Is.EqualTo(new[] { "sound/bgm.awb" }));
        using var cpk = game.OpenFile("data/data.cpk");
        var built = _dir.Write("out.cpk", AcbTests.Materialise(cpk));
        var entry = CpkIndependentReader.Read(built).Entries.Single(e => e.Path == "sound/bgm.acb");
        Assert.That(File.ReadAllBytes(built).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray(), Is.EqualTo(acb));
    }
}
