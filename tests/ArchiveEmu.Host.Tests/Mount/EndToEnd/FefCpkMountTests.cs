using ArchiveEmu.Host.Tests.Mount.Support;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>
/// Issue 31, an FEmulator route into a PAK stored in the game's CPKs, through a real mount: both CPKs that hold the path serve
/// the PAK built from the language CPK's original (Persona Essentials' rule), re-read with the independent CPK reader and a
/// walk of PAK records, against bytes this test builds.
/// </summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class FefCpkMountTests(string fuse) : SampleGameMountFixture(fuse)
{
    private static readonly PakTestLayout V2 = PakTestLayout.All.First(l => l.Variant == "V2");
    private static readonly byte[] Other = TestData.Random(2, 300), Bf = TestData.Random(4, 1234);

    private protected override void Prepare(SampleGame game)
    {
        game.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([
            new("FIELD/PACK", "FD007_003.ARC", PakTestWriter.Write(V2, [("f007.bf", TestData.Random(1, 700)), ("other.bin", Other)])),
            new("FONT", "FONT0.FNT", TestData.Random(3, 900))]));
        game.Write("game/CPK/BASE.CPK", CpkTestWriter.WriteNamed([
            new("FIELD/PACK", "FD007_003.ARC", PakTestWriter.Write(V2, [("f007.bf", TestData.Random(5, 50)), ("base.bin", TestData.Random(6, 60))]))]));
        game.Write("mods/persona/ModConfig.json", "{\"ModId\": \"persona.field\"}"u8.ToArray());
        game.Write("mods/persona/FEmulator/PAK/field/pack/fd007_003.arc/f007.bf", Bf);
    }

    private protected override string[] ExtraHostArgs(SampleGame game) => [$"--ArchiveEmu:Mods:2={Path.Combine(game.Root, "mods", "persona")}"];

    [TestCase("CPK/EN.CPK")]
    [TestCase("CPK/BASE.CPK")]
    public void EachCpkHoldingThePath_ServesThePakBuiltFromTheLanguageCpk_WithTheModsFile(string cpk)
    {
        var path = _game.Write($"out/{Guid.NewGuid():N}.cpk", File.ReadAllBytes(_game.Mounted(cpk)));
        var entry = CpkIndependentReader.Read(path).Entries.Single(e => e.Path == "FIELD/PACK/FD007_003.ARC");
        var pak = File.ReadAllBytes(path).AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();
        Assert.That(AfsIndependentReader.Sha256(pak), Is.EqualTo(entry.ContentSha256));
        Assert.That(PakV2Records.Members(pak), Is.EqualTo(new[] { ("f007.bf", Bf), ("other.bin", Other) }), _host.Output);
    }
}
