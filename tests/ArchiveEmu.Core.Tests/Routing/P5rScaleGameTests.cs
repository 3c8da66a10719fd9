using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Routing;

/// <summary>
/// The P5R-scale benchmark's generator (issue 31, "Samples and scale") at a tenth of a percent of its size: its CPKs are valid
/// to the independent reader and hold what it says, its mods are Reloaded-II mods in every layout it claims, and it is written
/// once per stamp and the same for the same seed.
/// </summary>
public sealed class P5rScaleGameTests
{
    // Ten mods reach every layout (0–6 the special ones, then PAK routes, Essentials and CRI hook folders); 1,000 entries hold FD007_003.ARC.
    private static readonly P5rScaleGame.Scale Small = new(EntriesPerCpk: 1_000, Mods: 10, FilesPerMod: 20);
    private TempDirectory _dir = null!;
    private P5rScaleGame _game = null!;

    [OneTimeSetUp]
    public void Generate()
    {
        _dir = new TempDirectory("p5r-scale");
        _game = P5rScaleGame.Open(_dir["a"], Small);
    }

    [OneTimeTearDown]
    public void Delete() => _dir.Dispose();

    [Test]
    public void EachCpk_IsValidToTheIndependentReader_AndHoldsTheListedEntries()
    {
        foreach (var (cpk, paths) in _game.CpkPaths)
        {
            var archive = CpkIndependentReader.Read(Path.Combine(_game.Game, cpk));
            Assert.That(archive.Entries.Select(e => e.Path), Is.EqualTo(paths), cpk);
            Assert.That(paths, Has.Count.EqualTo(Small.EntriesPerCpk), cpk);
        }
        var both = _game.CpkPaths["CPK/BASE.CPK"].Intersect(_game.CpkPaths["CPK/EN.CPK"]).ToList();
        Assert.That(both, Does.Contain("BATTLE/TABLE/NAME.TBL").And.Contain("FIELD/PACK/FD000_000.ARC"));
        Assert.That(both, Has.Count.GreaterThan(Small.EntriesPerCpk / 20));
        Assert.That(_game.CpkPaths["CPK/BASE.CPK"], Does.Contain("BATTLE/TABLE/UNIT.TBL").And.Contain("SOUND/BGM_42.AWB").And.Contain("SOUND/BGM_42.ACB")
            .And.Contain("FIELD/PACK/FD007_003.ARC").And.Contain("FIELD/PANEL/SPD/PANEL_000.SPD"));
        Assert.That(_game.CpkPaths["CPK/EN.CPK"], Does.Contain("FONT/FONT0.FNT"));
        Assert.That(File.Exists(Path.Combine(_game.Game, "P5R.exe")));
    }

    [Test]
    public void TheFieldPack_IsAPakHoldingTheFileTheDocumentedRouteNames()
    {
        var members = PakIndependentReader.Read(Extract("CPK/BASE.CPK", "FIELD/PACK/FD007_003.ARC"), "V3BE");
        Assert.That(members.Select(m => m.Name), Does.Contain("f007.bf"));
        Assert.That(_game.Mods.SelectMany(m => m.Files), Does.Contain("FEmulator/PAK/field/pack/fd007_003.arc/f007.bf"));
    }

    [Test]
    public void TheAwb_IsValidToTheIndependentReader()
    {
        var awb = AwbIndependentReader.Read(Extract("CPK/BASE.CPK", "SOUND/BGM_42.AWB"));
        Assert.That(awb.Entries, Has.Length.EqualTo(64));
    }

    [Test]
    public void TheTwoUnitTableMods_ChangeDifferentEnemiesAndOneFieldBoth_AndTheSecondGrowsTheLastSegment()
    {
        var table = File.ReadAllBytes(Extract("CPK/BASE.CPK", "BATTLE/TABLE/UNIT.TBL"));
        // Essentials' container, read here by hand: a big-endian length, the data, the next segment on a multiple of 16.
        Assert.That(BinaryPrimitives.ReadInt32BigEndian(table), Is.EqualTo(784 * 68));
        Assert.That(BinaryPrimitives.ReadInt32BigEndian(table.AsSpan((4 + 784 * 68 + 15) / 16 * 16)), Is.EqualTo(784 * 40));
        var original = P5rTableWriter.Segments(table);
        var first = P5rTableWriter.Segments(File.ReadAllBytes(ModFile(0, "P5REssentials/CPK/BASE.CPK/BATTLE/TABLE/UNIT.TBL")));
        var second = P5rTableWriter.Segments(File.ReadAllBytes(ModFile(1, "P5REssentials/CPK/BASE.CPK/BATTLE/TABLE/UNIT.TBL")));
        Assert.That(original, Has.Count.EqualTo(6));
        Assert.That(original[0], Has.Length.EqualTo(784 * 68));
        Assert.That(ChangedEnemies(original[0], first[0]), Is.EqualTo(new[] { 3, 10 }));
        Assert.That(ChangedEnemies(original[0], second[0]), Is.EqualTo(new[] { 10, 20 }));
        Assert.That(BinaryPrimitives.ReadInt32BigEndian(first[0].AsSpan(10 * 68 + 8)), Is.Not.EqualTo(BinaryPrimitives.ReadInt32BigEndian(second[0].AsSpan(10 * 68 + 8))));
        Assert.That(second[5], Has.Length.EqualTo(original[5].Length + 16));
        Assert.That(first.Skip(1), Is.EqualTo(original.Skip(1)));
    }

    [Test]
    public void TheTwoNameTableMods_AreNameTablesOf19ListsThatDifferFromTheOriginal()
    {
        var original = File.ReadAllBytes(Extract("CPK/EN.CPK", "BATTLE/TABLE/NAME.TBL"));
        foreach (int mod in new[] { 2, 3 })
        {
            var edited = File.ReadAllBytes(ModFile(mod, "P5REssentials/CPK/EN.CPK/BATTLE/TABLE/NAME.TBL"));
            Assert.That(P5rTableWriter.Segments(edited), Has.Count.EqualTo(38));
            Assert.That(edited, Is.Not.EqualTo(original));
        }
    }

    [Test]
    public void EveryMod_IsAReloadedModOfTheSaidFiles_AndTogetherTheyUseEveryLayout()
    {
        // The generator spells some mod paths in lower case (BATTLE/ and battle/ side by side); Windows folds them into one.
        LinuxOnly.Require("two names differing only in case in one folder");
        foreach (var mod in _game.Mods)
        {
            string folder = Path.Combine(_game.ModsFolder, mod.Name);
            using var config = JsonDocument.Parse(File.ReadAllText(Path.Combine(folder, "ModConfig.json")));
            Assert.That(config.RootElement.GetProperty("ModId").GetString(), Does.StartWith("p5rscale.mod"));
            var onDisk = Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories)
                .Select(f => Path.GetRelativePath(folder, f).Replace('\\', '/')).Where(f => f != "ModConfig.json").Order(StringComparer.Ordinal);
            Assert.That(onDisk, Is.EqualTo(mod.Files.Order(StringComparer.Ordinal)), mod.Name);
            Assert.That(mod.Files, Has.Count.EqualTo(Small.FilesPerMod), mod.Name);
        }
        var files = _game.Mods.SelectMany(m => m.Files).ToList();
        foreach (var layout in new[] { "P5REssentials/CPK/EN.CPK/", "P5REssentials/CPK/BASE.CPK/", "CRIFsV2Hook/CPK/", "FEmulator/PAK/field/pack/",
            "FEmulator/AWB/BGM_42.AWB/", "FEmulator/L10N/ja/", "FEmulator/BF/" })
            Assert.That(files, Has.Some.StartsWith(layout), layout);
        Assert.That(_game.Mods.Single(m => m.Layout.Contains("script")).Files, Has.All.Match("^FEmulator/BF/.*\\.flow$"));
    }

    [Test]
    public void EveryCpkFolderFile_NamesAnEntryIgnoringCase_ButOneNewFilePerModUsingThem_AndEveryPakRouteAFieldPackOfTheBaseCpk()
    {
        var entries = _game.CpkPaths.Values.SelectMany(p => p).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var packs = _game.CpkPaths["CPK/BASE.CPK"].Where(p => p.EndsWith(".ARC", StringComparison.Ordinal)).ToHashSet(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i < _game.Mods.Count; i++)
        {
            var mod = _game.Mods[i];
            var inCpkFolders = mod.Files.Where(f => f.StartsWith("P5REssentials/CPK/", StringComparison.Ordinal) || f.StartsWith("CRIFsV2Hook/CPK/", StringComparison.Ordinal))
                .Select(f => string.Join('/', f.Split('/').Skip(3))).ToList();
            Assert.That(inCpkFolders.Where(p => !entries.Contains(p)), Is.EqualTo(inCpkFolders.Count == 0 ? [] : new[] { $"MODEL/CHARACTER/9999/NEW_{i:D2}.GMD" }), mod.Name);
            foreach (var route in mod.Files.Where(f => f.StartsWith("FEmulator/PAK/", StringComparison.Ordinal)))
                Assert.That(packs.Contains(string.Join('/', route.Split('/')[2..^1])), route);
        }
    }

    [Test]
    public void OpeningAgain_ReusesTheFolder_AndTheSameSeedGivesTheSameBytesElsewhere()
    {
        string cpk = Path.Combine(_game.Game, "CPK", "BASE.CPK");
        var written = File.GetLastWriteTimeUtc(cpk);
        var again = P5rScaleGame.Open(_dir["a"], Small);
        Assert.That(again.Written, Is.False);
        Assert.That(File.GetLastWriteTimeUtc(cpk), Is.EqualTo(written));

        var elsewhere = P5rScaleGame.Open(_dir["b"], Small);
        Assert.That(elsewhere.Written, Is.True);
        Assert.That(SHA256.HashData(File.ReadAllBytes(Path.Combine(elsewhere.Game, "CPK", "BASE.CPK"))), Is.EqualTo(SHA256.HashData(File.ReadAllBytes(cpk))));
        Assert.That(SHA256.HashData(File.ReadAllBytes(Path.Combine(elsewhere.ModFolders.First(), _game.Mods[0].Files[0]))),
            Is.EqualTo(SHA256.HashData(File.ReadAllBytes(ModFile(0, _game.Mods[0].Files[0])))));
    }

    [Test]
    public void TheCriFsOnlyMix_PutsEveryModFileInACriHookFolder()
    {
        var game = P5rScaleGame.Open(_dir["crifs"], new P5rScaleGame.Scale(EntriesPerCpk: 400, Mods: 8, CriFsOnly: true));
        Assert.That(game.Mods.SelectMany(m => m.Files), Has.All.StartsWith("CRIFsV2Hook/CPK/"));
        Assert.That(game.ModFileCount, Is.EqualTo(8 * 20));
    }

    private string ModFile(int mod, string path) => Path.Combine(_game.ModFolders.ElementAt(mod), path);

    // The entry's stored bytes, cut out at the offset the independent reader gives, into a file of its own.
    private string Extract(string cpk, string entry)
    {
        var e = CpkIndependentReader.Read(Path.Combine(_game.Game, cpk)).Entries.Single(x => x.Path == entry);
        using var file = File.OpenRead(Path.Combine(_game.Game, cpk));
        var bytes = new byte[e.FileSize];
        file.Position = e.Offset;
        file.ReadExactly(bytes);
        return _dir.Write($"extracted/{cpk}/{entry}", bytes);
    }

    private static int[] ChangedEnemies(byte[] before, byte[] after) =>
        Enumerable.Range(0, before.Length / 68).Where(i => !before.AsSpan(i * 68, 68).SequenceEqual(after.AsSpan(i * 68, 68))).ToArray();
}
