using System.Buffers.Binary;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.TestSupport.Persona;

/// <summary>
/// The P5R-like sample of fixtures/persona (written by fixtures/persona.py) and what its eleven mods, in the script's order,
/// must make of CPK/BASE.CPK and CPK/EN.CPK. Every expectation is built here from the original CPKs and the mods' files,
/// read back with the independent CPK, PAK, AWB, ACB (@UTF) and SPD readers; nothing is compared with the product's own output.
/// </summary>
public static class PersonaSample
{
    public static string Game => RepositoryFiles.Fixture("persona/game");

    /// <summary>The mods in fixtures/persona.py's order (later wins), as the tests pass them.</summary>
    public static readonly string[] ModNames =
    [
        "essentials-font", "crifs-model", "field-edit", "bgm-42", "chat-sprites", "field-sprites",
        "unit-hp", "unit-strength", "font-l10n", "script-only", "misspelled",
    ];

    public static string Mod(string name) => RepositoryFiles.Fixture($"persona/mods/{name}");

    public static string[] Mods => ModNames.Select(Mod).ToArray();

    private static byte[] ModFile(string mod, string relative) => File.ReadAllBytes(Path.Combine(Mod(mod), relative));

    /// <summary>FONT/FONT0.FNT as the game in <paramref name="language"/> must see it: font-l10n wins over essentials-font, its language folder replacing its own file.</summary>
    public static byte[] ExpectedFont(string language) => language == "es"
        ? ModFile("font-l10n", "FEmulator/L10N/es/FONT0.FNT")
        : ModFile("font-l10n", "P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT");

    /// <summary>Checks a served BASE.CPK: the font and crifs-model's model, the same entries as the original.</summary>
    public static void AssertBaseCpk(string served, string language)
    {
        var entries = Entries(served);
        Assert.That(entries.Keys, Is.EqualTo(Entries(Path.Combine(Game, "CPK/BASE.CPK")).Keys), "BASE.CPK: no entry added or lost");
        Assert.That(entries["FONT/FONT0.FNT"], Is.EqualTo(ExpectedFont(language)), "BASE.CPK FONT/FONT0.FNT");
        Assert.That(entries["MODEL/CHARACTER/0001/C0001_000_00.GMD"],
            Is.EqualTo(ModFile("crifs-model", "CRIFsV2Hook/CPK/Joker/MODEL/CHARACTER/0001/C0001_000_00.GMD")), "BASE.CPK's model");
    }

    /// <summary>Checks a served EN.CPK: font, the PAK with its SPD, the AWB and the ACB following it, the chat SPD, the merged UNIT.TBL.</summary>
    public static void AssertEnCpk(string served, string language, TempDirectory scratch)
    {
        var original = Entries(Path.Combine(Game, "CPK/EN.CPK"));
        var entries = Entries(served);
        Assert.That(entries.Keys, Is.EqualTo(original.Keys), "EN.CPK: no entry added or lost");
        Assert.That(entries["FONT/FONT0.FNT"], Is.EqualTo(ExpectedFont(language)), "EN.CPK FONT/FONT0.FNT");
        AssertFieldPak(original["FIELD/PACK/FD007_003.ARC"], entries["FIELD/PACK/FD007_003.ARC"], scratch);
        AssertBgm(original, entries, scratch);
        AssertTextureAdded(original["FONT/CHAT/CHAT.SPD"], entries["FONT/CHAT/CHAT.SPD"],
            ModFile("chat-sprites", "FEmulator/SPD/FONT/CHAT/CHAT.SPD/tex_1.dds"), 1, "FONT/CHAT/CHAT.SPD");
        Assert.That(entries["BATTLE/TABLE/UNIT.TBL"], Is.EqualTo(ExpectedUnitTable(original["BATTLE/TABLE/UNIT.TBL"])), "UNIT.TBL holds both enemy edits");
    }

    /// <summary>
    /// UNIT.TBL with both mods' edits, from the original: segment 0 (big-endian length, then 68-byte enemy records) gets enemy 1's
    /// u16 at +4 = 999 (unit-hp) and enemy 3's u16 at +8 = 77 (unit-strength); every other byte stays the original's.
    /// </summary>
    public static byte[] ExpectedUnitTable(byte[] original)
    {
        Assert.That(BinaryPrimitives.ReadInt32BigEndian(original), Is.EqualTo(4 * 68), "the fixture's first segment holds four 68-byte enemies");
        var expected = original.ToArray();
        BinaryPrimitives.WriteUInt16LittleEndian(expected.AsSpan(4 + 1 * 68 + 4), 999);
        BinaryPrimitives.WriteUInt16LittleEndian(expected.AsSpan(4 + 3 * 68 + 8), 77);
        // Neither mod's file alone is the answer: the test would not tell a merge from the later mod winning whole.
        Assert.That(expected, Is.Not.EqualTo(ModFile("unit-hp", "P5REssentials/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL")));
        Assert.That(expected, Is.Not.EqualTo(ModFile("unit-strength", "CRIFsV2Hook/CPK/EN/BATTLE/TABLE/UNIT.TBL")));
        return expected;
    }

    /// <summary>The CPK's entries by path, each entry's bytes checked against the independent reader's hash.</summary>
    public static Dictionary<string, byte[]> Entries(string cpk)
    {
        var bytes = File.ReadAllBytes(cpk);
        var result = new Dictionary<string, byte[]>();
        foreach (var entry in CpkIndependentReader.Read(cpk).Entries)
        {
            Assert.That(entry.Compressed, Is.False, $"{cpk}: {entry.Path} is stored whole in the sample");
            var content = bytes.AsSpan((int)entry.Offset, (int)entry.FileSize).ToArray();
            Assert.That(AfsIndependentReader.Sha256(content), Is.EqualTo(entry.ContentSha256), $"{cpk}: {entry.Path}");
            result.Add(entry.Path, content);
        }
        return result;
    }

    private static void AssertFieldPak(byte[] original, byte[] served, TempDirectory scratch)
    {
        var before = PakV1Members(original, scratch);
        var after = PakV1Members(served, scratch);
        Assert.That(after.Select(m => m.Name), Is.EqualTo(new[] { "f007.bf", "f007.bmd", "fd007.spd" }), "FD007_003.ARC's members");
        Assert.That(after[0].Bytes, Is.EqualTo(before[0].Bytes), "f007.bf stays the original: script-only's empty dummy is not applied");
        Assert.That(after[1].Bytes, Is.EqualTo(ModFile("field-edit", "FEmulator/PAK/field/pack/fd007_003.arc/f007.bmd")), "field-edit's f007.bmd");
        AssertTextureAdded(before[2].Bytes, after[2].Bytes, ModFile("field-sprites", "FEmulator/SPD/fd007.spd/tex_0.dds"), 0, "fd007.spd in FD007_003.ARC");
    }

    private static void AssertBgm(Dictionary<string, byte[]> original, Dictionary<string, byte[]> served, TempDirectory scratch)
    {
        var before = AwbIndependentReader.Read(scratch.Write($"awb-{Guid.NewGuid():N}.awb", original["SOUND/BGM_42.AWB"])).Entries;
        var awb = served["SOUND/BGM_42.AWB"];
        var after = AwbIndependentReader.Read(scratch.Write($"awb-{Guid.NewGuid():N}.awb", awb)).Entries;
        Assert.That(after.Select(e => (e.Id, e.Sha256)), Is.EqualTo(new[]
        {
            (before[0].Id, before[0].Sha256),
            (before[1].Id, AfsIndependentReader.Sha256(ModFile("bgm-42", "FEmulator/AWB/BGM_42.AWB/1.hca"))),
            (before[2].Id, before[2].Sha256),
        }), "BGM_42.AWB: entry 1 is bgm-42's, the others the original's");
        AcbFollowCheck.AssertFollows(scratch.Write($"acb-{Guid.NewGuid():N}.acb", original["SOUND/BGM_42.ACB"]),
            scratch.Write($"acb-{Guid.NewGuid():N}.acb", served["SOUND/BGM_42.ACB"]), awb, scratch);
    }

    /// <summary>
    /// FEF's SPD rule for tex_N.dds: the original textures stay, the DDS is added under the next free id, and the sprites that
    /// drew on texture N now draw on the new one.
    /// </summary>
    private static void AssertTextureAdded(byte[] original, byte[] served, byte[] dds, int replaced, string what)
    {
        var before = SpdIndependentReader.Read(original, $"original {what}");
        var after = SpdIndependentReader.Read(served, $"served {what}");
        int added = before.Textures.Max(t => t.Id) + 1;
        Assert.That(after.Textures.Select(t => (t.Id, t.Dds)),
            Is.EqualTo(before.Textures.Select(t => (t.Id, t.Dds)).Append((added, dds))), $"{what}: textures");
        Assert.That(after.Sprites.Select(s => (s.Id, s.TextureId, s.X, s.Y, s.Width, s.Height)),
            Is.EqualTo(before.Sprites.Select(s => (s.Id, s.TextureId == replaced ? added : s.TextureId, s.X, s.Y, s.Width, s.Height))), $"{what}: sprites");
    }

    /// <summary>A PAK V1's members (252-byte name, s32 size, data, records on 64 bytes), checked by the independent PAK reader.</summary>
    private static List<(string Name, byte[] Bytes)> PakV1Members(byte[] pak, TempDirectory scratch)
    {
        var checkedMembers = PakIndependentReader.Read(scratch.Write($"pak-{Guid.NewGuid():N}.pak", pak), "V1");
        var result = new List<(string, byte[])>();
        for (int at = 0; result.Count < checkedMembers.Count; at = (at + 256 + result[^1].Item2.Length + 63) / 64 * 64)
        {
            int size = BinaryPrimitives.ReadInt32LittleEndian(pak.AsSpan(at + 252));
            var bytes = pak.AsSpan(at + 256, size).ToArray();
            Assert.That(AfsIndependentReader.Sha256(bytes), Is.EqualTo(checkedMembers[result.Count].Sha256));
            result.Add((checkedMembers[result.Count].Name, bytes));
        }
        return result;
    }
}
