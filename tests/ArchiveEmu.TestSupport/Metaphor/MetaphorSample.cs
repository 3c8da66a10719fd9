using System.Buffers.Binary;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.TestSupport.Metaphor;

/// <summary>
/// The Metaphor-like sample of fixtures/metaphor (written by fixtures/metaphor.py) and what its mods must make of base.cpk.
/// Every expectation is built here from the fixture script's own numbers and the mods' files, read back with the independent
/// CPK reader and CRILAYLA decoder; nothing is compared with the product's own output.
/// </summary>
public static class MetaphorSample
{
    public const string SkillTable = "COMMON/battle/table/Skill.tbl", WeaponTable = "COMMON/battle/table/ItemWeapon.tbl";
    public const string UnlistedTable = "COMMON/init/data/weaponModel11.bin", Model = "COMMON/model/character/c0001.gmd";

    public static string Game => RepositoryFiles.Fixture("metaphor/game");

    public static string Cpk => Path.Combine(Game, "base.cpk");

    public static string Mod(string name) => RepositoryFiles.Fixture($"metaphor/mods/{name}");

    public static byte[] ModFile(string mod, string relative) => File.ReadAllBytes(Path.Combine(Mod(mod), relative));

    /// <summary>Skill.tbl as fixtures/metaphor.py writes it: 24 skills of 32 bytes, eight little-endian u32 each (i, 100 + i, 10i, 5 + i % 7, i % 3, 0, 0, 0).</summary>
    public static byte[] OriginalSkills()
    {
        var table = new byte[24 * 32];
        for (int i = 0; i < 24; i++)
        {
            uint[] fields = [(uint)i, 100u + (uint)i, 10u * (uint)i, 5u + (uint)(i % 7), (uint)(i % 3), 0, 0, 0];
            for (int f = 0; f < fields.Length; f++)
                BinaryPrimitives.WriteUInt32LittleEndian(table.AsSpan(i * 32 + f * 4), fields[f]);
        }
        return table;
    }

    /// <summary>
    /// Skill.tbl merged field by field (fields of 4 bytes): skill-power sets skill 2's +8 to 250 and skill 5's +12 to 1, skill-cost
    /// skill 7's +12 to 3 and skill 5's +12 to 9; skill 5's +12, which both change, is the later mod's.
    /// </summary>
    public static byte[] ExpectedSkills(bool skillCostLast)
    {
        var expected = OriginalSkills();
        BinaryPrimitives.WriteUInt32LittleEndian(expected.AsSpan(2 * 32 + 8), 250);
        BinaryPrimitives.WriteUInt32LittleEndian(expected.AsSpan(7 * 32 + 12), 3);
        BinaryPrimitives.WriteUInt32LittleEndian(expected.AsSpan(5 * 32 + 12), skillCostLast ? 9u : 1u);
        // Neither mod's file alone is the answer: the test would not tell a merge from the later mod winning whole.
        Assert.That(expected, Is.Not.EqualTo(ModFile("skill-power", $"MFEssentials/CPK/SkillPower/{SkillTable}")));
        Assert.That(expected, Is.Not.EqualTo(ModFile("skill-cost", $"CRIFsV2Hook/CPK/Costs/{SkillTable}")));
        return expected;
    }

    /// <summary>The CPK's entries by path, decoded (the sample stores Skill.tbl CRILAYLA-compressed, as the game stores its files).</summary>
    public static Dictionary<string, byte[]> Entries(string cpk)
    {
        var bytes = File.ReadAllBytes(cpk);
        var result = new Dictionary<string, byte[]>();
        foreach (var entry in CpkIndependentReader.Read(cpk).Entries)
        {
            var stored = bytes.AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();
            var content = entry.Compressed ? CrilaylaIndependentDecoder.Decode(stored) : stored;
            Assert.That(AfsIndependentReader.Sha256(content), Is.EqualTo(entry.ContentSha256), $"{cpk}: {entry.Path}");
            result.Add(entry.Path, content);
        }
        return result;
    }
}
