using System.Buffers.Binary;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Metaphor;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Issue 50: the Metaphor-like sample (fixtures/metaphor) through the CLI. Metaphor Essentials' MFEssentials/CPK folder is read
/// as the CRI hook's folders are, its 58 tables are merged field by field (Persona.Merger.Common's generic rule, which it shares
/// with Persona Essentials) in the game holding METAPHOR.exe, and a table given in P5REssentials/CPK is merged by that rule too.
/// </summary>
public sealed class MetaphorModSetTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder() => _dir = new TempDirectory("cli-metaphor");

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private static readonly string[] AllMods = ["metaphor-essentials", "skill-power", "skill-cost", "weapon-stats", "hd-model"];

    private static string[] GameAndMods(IEnumerable<string> mods, params string[] tail) =>
        ["--game", MetaphorSample.Game, .. mods.SelectMany(m => new[] { "--mod", MetaphorSample.Mod(m) }), "--no-cache", .. tail];

    private Dictionary<string, byte[]> Served(IEnumerable<string> mods)
    {
        var output = _dir[$"{Guid.NewGuid():N}.cpk"];
        var result = CliRun.Run(["cat", .. GameAndMods(mods, "base.cpk", "-o", output)]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        return MetaphorSample.Entries(output);
    }

    [Test]
    public void Cat_BaseCpk_MergesTheTables_AndReplacesTheRest()
    {
        var original = MetaphorSample.Entries(MetaphorSample.Cpk);
        Assert.That(original[MetaphorSample.SkillTable], Is.EqualTo(MetaphorSample.OriginalSkills()), "the fixture's Skill.tbl, as the script writes it");
        var served = Served(AllMods);
        Assert.That(served.Keys, Is.EquivalentTo(original.Keys), "no entry added or lost");
        Assert.That(served[MetaphorSample.SkillTable], Is.EqualTo(MetaphorSample.ExpectedSkills(skillCostLast: true)), "Skill.tbl holds both mods' edits");
        var weapons = original[MetaphorSample.WeaponTable].ToArray();
        BinaryPrimitives.WriteUInt16LittleEndian(weapons.AsSpan(40), 0x1234);
        Assert.That(served[MetaphorSample.WeaponTable], Is.EqualTo(weapons), "ItemWeapon.tbl from P5REssentials/CPK: its one field over the original");
        Assert.That(served[MetaphorSample.UnlistedTable], Is.EqualTo(MetaphorSample.ModFile("hd-model", $"MFEssentials/CPK/Models/{MetaphorSample.UnlistedTable}")),
            "weaponModel11.bin is not in Metaphor Essentials' list: the mod's file whole");
        Assert.That(served[MetaphorSample.Model], Is.EqualTo(MetaphorSample.ModFile("hd-model", $"MFEssentials/CPK/Models/{MetaphorSample.Model}")));
        Assert.That(served["EN/font/font.fnt"], Is.EqualTo(original["EN/font/font.fnt"]));
    }

    [Test]
    public void Cat_TheTableModsReversed_TheFieldBothChangeIsTheOtherMods()
    {
        var served = Served(["skill-cost", "skill-power"]);
        Assert.That(served[MetaphorSample.SkillTable], Is.EqualTo(MetaphorSample.ExpectedSkills(skillCostLast: false)));
    }

    [Test]
    public void BuildJson_ReportsEachMergedTable_ItsModsAndTheConflict_AndTheCodeModNotApplied()
    {
        var result = CliRun.Run(["build", .. GameAndMods(AllMods, "--json")]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        var build = JsonDocument.Parse(result.Out).RootElement;
        var tables = build.GetProperty("tables").EnumerateArray().ToDictionary(t => t.GetProperty("path").GetString()!);
        Assert.That(tables.Keys, Is.EquivalentTo(new[] { $"base.cpk/{MetaphorSample.SkillTable}", $"base.cpk/{MetaphorSample.WeaponTable}" }));
        var skills = tables[$"base.cpk/{MetaphorSample.SkillTable}"];
        Assert.That(skills.GetProperty("mods").EnumerateArray().Select(m => (m.GetProperty("mod").GetString(), m.GetProperty("fields").GetInt32())),
            Is.EqualTo(new[] { ("skill-power", 2), ("skill-cost", 2) }));
        var conflict = skills.GetProperty("conflicts").EnumerateArray().Single();
        Assert.That((conflict.GetProperty("offset").GetInt32(), conflict.GetProperty("width").GetInt32(), conflict.GetProperty("winner").GetString()),
            Is.EqualTo((5 * 32 + 12, 4, "skill-cost")));
        var notApplied = build.GetProperty("not_applied").EnumerateArray().Select(n => (n.GetProperty("mod").GetString(), string.Join(",",
            n.GetProperty("files").EnumerateArray().Select(f => f.GetString())))).ToArray();
        Assert.That(notApplied, Is.EqualTo(new[] { ("metaphor-essentials", "mrfpc.modloader.dll") }), "Metaphor Essentials' own parts are code");
    }

    [Test]
    public void Ls_NamesTheMergedTableAndItsMods()
    {
        var result = CliRun.Run(["ls", .. GameAndMods(["skill-power", "skill-cost"], "base.cpk")]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(result.Out, Does.Contain("Skill.tbl").And.Contain("skill-power").And.Contain("skill-cost"), result.Out);
    }

    [Test]
    public void Cat_TheSameModsInAGameWithoutMetaphorsExecutable_LastModWinsTheTableWhole()
    {
        // The merge follows the game the folder is recognised as (METAPHOR.exe): without it, CRI's rule, the later file whole.
        var game = _dir["not-metaphor"];
        File.Copy(MetaphorSample.Cpk, Path.Combine(Directory.CreateDirectory(game).FullName, "base.cpk"));
        var output = _dir["served.cpk"];
        var result = CliRun.Run(["cat", "--game", game, "--mod", MetaphorSample.Mod("skill-power"), "--mod", MetaphorSample.Mod("skill-cost"),
            "--no-cache", "base.cpk", "-o", output]);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(MetaphorSample.Entries(output)[MetaphorSample.SkillTable],
            Is.EqualTo(MetaphorSample.ModFile("skill-cost", $"CRIFsV2Hook/CPK/Costs/{MetaphorSample.SkillTable}")));
    }
}
