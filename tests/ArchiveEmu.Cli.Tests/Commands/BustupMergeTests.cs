using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;
using ArchiveEmu.TestSupport.Reloaded;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 50, P5R's bust-up parameters: with the merging mod (p5rpc.bustupparam.merging) given, every mod's BUSTUP_PARAM.DAT found
/// by name under a CRI probing folder is merged entry by entry over the merging mod's Original/ copy (not the game's), served at
/// BUSTUP/DATA/BUSTUP_PARAM.DAT; without it, the later mod's file wins whole. Expectations are written here by hand.
/// </summary>
public sealed class BustupMergeTests
{
    private const string Bustup = "BUSTUP/DATA/BUSTUP_PARAM.DAT", Assist = "FONT/ASSIST/BUSTUP/MSGASSISTBUSTUPPARAM.DAT";
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-bustup");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static byte[] B(ushort major, ushort minor, ushort sub, float baseX = 1, uint flags = 0) => BustupParamWriter.Bustup(major, minor, sub, baseX, flags);

    private static byte[] A(ushort major, ushort minor, float baseX = 1) => BustupParamWriter.Assist(major, minor, baseX);

    private static byte[] Cat(params byte[][] entries) => BustupParamWriter.File(entries);

    private void Config(string mod, string id, string dll = "")
    {
        _dir.Write($"{mod}/ModConfig.json", System.Text.Encoding.UTF8.GetBytes(
            $$"""{"ModId": "{{id}}", "ModName": "{{mod}}", "ModDll": "{{dll}}", "SupportedAppId": ["p5r.exe"]}"""));
    }

    private string[] WriteGame(bool withMergingMod)
    {
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        // The game's own copies differ from the merging mod's: the merge's base is the mod's Original/ copy.
        _dir.Write("game/CPK/EN.CPK", CpkTestWriter.WriteNamed([
            new("BUSTUP/DATA", "BUSTUP_PARAM.DAT", Cat(B(1, 0, 0, baseX: 100))),
            new("FONT/ASSIST/BUSTUP", "MSGASSISTBUSTUPPARAM.DAT", Cat(A(9, 9))),
            new("FONT", "FONT0.FNT", TestData.Random(3, 300)),
        ]));
        Config("merging", "p5rpc.bustupparam.merging", dll: "p5rpc.bustupparam.merging.dll");
        _dir.Write("merging/p5rpc.bustupparam.merging.dll", [0x4D, 0x5A]);
        _dir.Write("merging/Original/BUSTUP_PARAM_Original.DAT", Cat(B(2, 0, 0), B(1, 0, 0), B(3, 0, 0)));
        _dir.Write("merging/Original/MSGASSISTBUSTUPPARAM_Original.DAT", Cat(A(1, 0), A(2, 0)));
        Config("bust-a", "sample.bust-a");
        _dir.Write($"bust-a/CRIFsV2Hook/CPK/A/{Bustup}", Cat(B(2, 0, 0), B(1, 0, 0, baseX: 5), B(3, 0, 0, flags: 1)));
        Config("bust-b", "sample.bust-b");
        // Found by name at any depth, as the merging mod finds it: no CPK holds this path.
        _dir.Write("bust-b/P5REssentials/CPK/EN.CPK/Hidden/Deeper/bustup_param.dat", Cat(B(3, 0, 0, baseX: 7), B(4, 1, 0, baseX: 8)));
        Config("assist-c", "sample.assist-c");
        _dir.Write($"assist-c/CRIFsV2Hook/CPK/C/{Assist}", Cat(A(1, 0, baseX: 6), A(2, 0)));
        string[] mods = [.. withMergingMod ? new[] { "merging" } : [], "bust-a", "bust-b", "assist-c"];
        return ["--game", _dir["game"], .. mods.SelectMany(m => new[] { "--mod", _dir[m] }), "--no-cache"];
    }

    private Dictionary<string, byte[]> ServedEnCpk(string[] game)
    {
        var output = _dir["served.cpk"];
        var result = CliRun.Run(["cat", .. game, "CPK/EN.CPK", "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var bytes = File.ReadAllBytes(output);
        return CpkIndependentReader.Read(output).Entries.ToDictionary(e => e.Path, e => bytes.AsSpan((int)e.Offset, (int)e.FileSize).ToArray());
    }

    [Test]
    public void WithTheMergingMod_EveryModsFileIsMergedEntryByEntry_OverItsOriginalCopy_SortedByKey()
    {
        var served = ServedEnCpk(WriteGame(withMergingMod: true));
        Assert.That(served[Bustup], Is.EqualTo(Cat(B(1, 0, 0, baseX: 5), B(2, 0, 0), B(3, 0, 0, baseX: 7), B(4, 1, 0, baseX: 8))),
            "bust-a's (1,0,0), bust-b's (3,0,0) whole over bust-a's, bust-b's new (4,1,0); (2,0,0) the merging mod's original");
        Assert.That(served[Assist], Is.EqualTo(Cat(A(1, 0, baseX: 6), A(2, 0))));
    }

    [Test]
    public void WithoutTheMergingMod_TheLaterModsFileWinsWhole()
    {
        var served = ServedEnCpk(WriteGame(withMergingMod: false));
        Assert.That(served[Bustup], Is.EqualTo(Cat(B(2, 0, 0), B(1, 0, 0, baseX: 5), B(3, 0, 0, flags: 1))), "bust-a's file; bust-b's lies at no game path");
    }

    /// <summary>From a Reloaded-II setup the merging mod is code only, served no file, yet loaded: its merge applies.</summary>
    [Test]
    public void FromAReloadedSetup_TheMergingModLoadedAsCodeOnly_MergesAsWhenGiven()
    {
        LinuxOnly.Require("a Wine prefix: dosdevices/ symlinks and Linux paths");
        WriteGame(withMergingMod: true);
        var p = new FakeProtonPrefix(_dir["prefix"]);
        File.Copy(_dir["game/CPK/EN.CPK"], Path.Combine(Directory.CreateDirectory(Path.Combine(p.Game, "CPK")).FullName, "EN.CPK"));
        p.App("p5r.exe", FakeProtonPrefix.OnZ(Path.Combine(p.Game, "P5R.exe")), "p5rpc.bustupparam.merging", "sample.bust-a", "sample.bust-b");
        foreach (var mod in new[] { "merging", "bust-a", "bust-b" })
            foreach (var file in Directory.EnumerateFiles(_dir[mod], "*", SearchOption.AllDirectories))
                FakeProtonPrefix.WriteFile(Path.Combine(p.Mods, mod), Path.GetRelativePath(_dir[mod], file), File.ReadAllBytes(file));

        var served = ServedEnCpk(["--game", p.Game, "--reloaded-dir", p.ConfigFolder, "--no-cache"]);

        Assert.That(served[Bustup], Is.EqualTo(Cat(B(1, 0, 0, baseX: 5), B(2, 0, 0), B(3, 0, 0, baseX: 7), B(4, 1, 0, baseX: 8))));
    }

    [Test]
    public void BuildJson_ReportsTheMergedFiles_TheirModsAndTheEntryInConflict()
    {
        var result = CliRun.Run(["build", .. WriteGame(withMergingMod: true), "--json"]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var tables = JsonDocument.Parse(result.Out).RootElement.GetProperty("tables").EnumerateArray().ToDictionary(t => t.GetProperty("path").GetString()!);
        var bustup = tables[$"CPK/EN.CPK/{Bustup}"];
        Assert.That(bustup.GetProperty("original").GetString(), Is.EqualTo("p5rpc.bustupparam.merging's Original/BUSTUP_PARAM_Original.DAT"));
        Assert.That(bustup.GetProperty("mods").EnumerateArray().Select(m => (m.GetProperty("mod").GetString(), m.GetProperty("fields").GetInt32())),
            Is.EqualTo(new[] { ("bust-a", 2), ("bust-b", 2) }));
        var conflict = bustup.GetProperty("conflicts").EnumerateArray().Single();
        Assert.That((conflict.GetProperty("offset").GetInt32(), conflict.GetProperty("width").GetInt32(), conflict.GetProperty("winner").GetString()),
            Is.EqualTo((2 * 0x28, 0x28, "bust-b")), "(3,0,0), the third entry of the merged file");
        Assert.That(tables[$"CPK/EN.CPK/{Assist}"].GetProperty("mods").EnumerateArray().Single().GetProperty("mod").GetString(), Is.EqualTo("assist-c"));

        var ls = CliRun.Run(["ls", .. WriteGame(withMergingMod: true), $"CPK/EN.CPK/{Bustup}"]);
        Assert.That(ls.ExitCode, Is.Zero, ls.ToString());
        Assert.That(ls.Out, Does.Contain("bust-a").And.Contain("bust-b"), ls.Out);
    }
}
