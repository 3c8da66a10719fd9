using System.Text.Json;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Priority is the order of --mod, never the mods' names: the sample's two mods given in the reverse of their name order,
/// and a third mod whose name sorts first given last. Entry 3 of data/textures.afs is the one every mod replaces.
/// </summary>
public sealed class ModPriorityTests
{
    private static readonly string Game = CliRun.Fixture("game");
    private static readonly string Hd = CliRun.Fixture("mods/hd-textures");
    private static readonly string Ui = CliRun.Fixture("mods/ui-fix");
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("priority");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static string Sha(string mod, string file) => AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(mod, "data/textures.afs", file)));

    private string Entry3(params string[] mods)
    {
        var output = _dir[$"out-{Guid.NewGuid():N}.afs"];
        var args = new List<string> { "cat", "--game", Game, "--no-cache" };
        foreach (var mod in mods)
            args.AddRange(["--mod", mod]);
        args.AddRange(["data/textures.afs", "-o", output]);
        var result = CliRun.Run([.. args]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return AfsIndependentReader.Read(output)[3].Sha256;
    }

    [Test]
    public void Cat_ModsGivenAgainstTheirNameOrder_TheLaterGivenWins()
    {
        Assert.That(Entry3(Hd, Ui), Is.EqualTo(Sha(Ui, "3_button_sheet.dds")));
        Assert.That(Entry3(Ui, Hd), Is.EqualTo(Sha(Hd, "3.dds")), "hd-textures sorts first but is given last");
    }

    [Test]
    public void Build_ModsGivenAgainstTheirNameOrder_ReportsTheLaterGivenAsWinner()
    {
        var result = CliRun.Run("build", "--game", Game, "--mod", Ui, "--mod", Hd, "--no-cache", "--json");
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        using var doc = JsonDocument.Parse(result.Out);
        var conflict = doc.RootElement.GetProperty("archives").EnumerateArray()
            .Single(a => a.GetProperty("path").GetString() == "data/textures.afs").GetProperty("conflicts").EnumerateArray().Single();
        Assert.That(conflict.GetProperty("mods").EnumerateArray().Select(m => m.GetString()), Is.EqualTo(new[] { "ui-fix", "hd-textures" }));
        Assert.That(conflict.GetProperty("winner").GetString(), Is.EqualTo("hd-textures"));
    }

    [Test]
    public void Cat_ThreeMods_TheLastGivenWinsWhateverItsName()
    {
        var late = _dir["aaa-late"];
        var bytes = TestData.Random(77, 3_333);
        _dir.Write("aaa-late/data/textures.afs/3.dds", bytes);
        Assert.That(Entry3(Hd, Ui, late), Is.EqualTo(AfsIndependentReader.Sha256(bytes)));
        Assert.That(Entry3(late, Hd, Ui), Is.EqualTo(Sha(Ui, "3_button_sheet.dds")));
        Assert.That(Entry3(Ui, late, Hd), Is.EqualTo(Sha(Hd, "3.dds")));
    }

    [Test]
    public void MergedCache_ModOrderReversed_IsAMissAndServesTheNewWinner()
    {
        var cache = _dir["cache"];
        var merged = CliRun.Run("build", "--game", Game, "--mod", Hd, "--mod", Ui, "--cache", cache, "--merge", "always");
        Assert.That(merged.ExitCode, Is.Zero, merged.ToString());

        var output = _dir["reversed.afs"];
        var cat = CliRun.Run("cat", "--game", Game, "--mod", Ui, "--mod", Hd, "--cache", cache, "data/textures.afs", "-o", output);
        Assert.That(cat.ExitCode, Is.Zero, cat.ToString());
        Assert.That(AfsIndependentReader.Read(output)[3].Sha256, Is.EqualTo(Sha(Hd, "3.dds")), "not the merged copy of the other order");

        var rebuilt = CliRun.Run("build", "--game", Game, "--mod", Ui, "--mod", Hd, "--cache", cache, "--merge", "always", "--json");
        using var doc = JsonDocument.Parse(rebuilt.Out);
        Assert.That(doc.RootElement.GetProperty("archives").EnumerateArray()
            .Single(a => a.GetProperty("path").GetString() == "data/textures.afs").GetProperty("merge").GetProperty("cache").GetString(), Is.EqualTo("stored"),
            "the reversed order has its own entry");
    }
}
