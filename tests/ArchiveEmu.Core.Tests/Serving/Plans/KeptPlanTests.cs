using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving.Plans;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Persona;

namespace ArchiveEmu.Core.Tests.Serving.Plans;

/// <summary>
/// Route plans kept in the cache folder (docs/DESIGN.md, "Route plans kept"): a second resolve of the same mods and game files
/// reads the plan back, and serves what a fresh resolve serves — checked on the Persona sample against the expectations built
/// from its files by the independent readers; any file the walk reads that changed since makes it resolve again.
/// </summary>
public sealed class KeptPlanTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateFolder()
    {
        _dir = new TempDirectory("kept-plans");
        _warnings.Clear(); // one fixture object serves every test
    }

    [TearDown]
    public void DeleteFolder() => _dir.Dispose();

    private GameSetup Setup(string game, string[] mods, string language = "en", bool cache = true) => new(game, mods)
    {
        Cache = cache ? new MergedFileCache(_dir["cache"], new CacheOptions(Warn: _warnings.Add)) : null,
        Language = new LanguageChoice(language, "test"),
        StorePlan = true,
    };

    private readonly List<string> _warnings = [];

    private static RoutePlan Resolve(GameSetup setup) => setup.ResolveRoutes();

    // A copy of the Persona sample the test may change.
    private (string Game, string[] Mods) CopyOfPersona()
    {
        Copy(PersonaSample.Game, _dir["game"]);
        foreach (var name in PersonaSample.ModNames)
            Copy(PersonaSample.Mod(name), _dir[$"mods/{name}"]);
        return (_dir["game"], PersonaSample.ModNames.Select(n => _dir[$"mods/{n}"]).ToArray());
    }

    private static void Copy(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    private string Serve(GameSetup setup, string route)
    {
        var game = EmulatedGame.Open(setup);
        using var file = game.OpenFile(route);
        var bytes = new byte[file.Length];
        file.ReadExactly(0, bytes);
        return _dir.Write($"served/{Guid.NewGuid():N}/{Path.GetFileName(route)}", bytes);
    }

    [TestCase("en")]
    [TestCase("es")]
    public void TheSecondResolve_ReadsThePlanBack_AndServesWhatTheMods(string language)
    {
        var setup = Setup(PersonaSample.Game, PersonaSample.Mods, language);
        var fresh = Resolve(setup);
        var kept = Resolve(setup);

        Assert.That((fresh.FromCache, kept.FromCache), Is.EqualTo((false, true)));
        PersonaSample.AssertEnCpk(Serve(setup, "CPK/EN.CPK"), language, _dir);
        PersonaSample.AssertBaseCpk(Serve(setup, "CPK/BASE.CPK"), language);
        Assert.That(Resolve(setup).FromCache, Is.True, "the game above served from a kept plan too");
    }

    [Test]
    public void AKeptPlan_SaysWhatAFreshResolveSays()
    {
        var setup = Setup(PersonaSample.Game, PersonaSample.Mods);
        var fresh = Resolve(setup);
        var kept = Resolve(setup);
        Assert.That(kept.FromCache, Is.True);

        Assert.That(kept.Warnings, Is.EqualTo(fresh.Warnings));
        Assert.That(kept.Conflicts.Select(Describe), Is.EqualTo(fresh.Conflicts.Select(Describe)));
        Assert.That(kept.Overrides.Select(o => (o.RelativePath, o.SourcePath, o.Mod, o.Rule)), Is.EqualTo(fresh.Overrides.Select(o => (o.RelativePath, o.SourcePath, o.Mod, o.Rule))));
        Assert.That(kept.NotApplied.Select(n => n.Line), Is.EqualTo(fresh.NotApplied.Select(n => n.Line)));
        Assert.That(kept.ModReports.Select(m => (m.Mod, m.Root, m.Layout, string.Join('|', m.Applied), string.Join('|', m.Languages))),
            Is.EqualTo(fresh.ModReports.Select(m => (m.Mod, m.Root, m.Layout, string.Join('|', m.Applied), string.Join('|', m.Languages)))));
        Assert.That(kept.Archives.Select(Describe), Is.EqualTo(fresh.Archives.Select(Describe)));
        Assert.That(fresh.Archives.SelectMany(a => a.Merges), Is.Not.Empty, "the sample merges UNIT.TBL");
    }

    private static string Describe(RouteConflict c) => $"{c.Target} {c.Entry} {string.Join(',', c.Mods)} {c.Winner} {string.Join(',', c.Rules)}";

    // A route as the reports show it: its changes and their inputs, nested and followed routes, and its tables.
    private static string Describe(ArchiveRoute r) =>
        $"{r.RelativePath} {r.GamePath} {r.Format.Name} {r.Slice?.Name} [{string.Join("; ", r.Patch.Changes.Select(c => $"{c.Key} {c.Origin} {c.Rule} {c.Input?.ToString()} {c.Input?.Length}"))}]"
        + $" conflicts [{string.Join("; ", r.Conflicts.Select(Describe))}] nested [{string.Join("; ", r.Nested.Select(n => $"{n.Entry} {n.Origin} {Describe(n.Route)}"))}]"
        + $" tables [{string.Join("; ", r.Merges.Select(t => $"{t.Path} {string.Join(',', t.Mods)} {string.Join(',', t.Conflicts.Select(c => $"{c.Segment}/{c.Offset}/{c.Width}/{string.Join('+', c.Mods)}/{c.Winner}"))} {string.Join(',', t.Segments.Select(s => $"{s.Index}/{s.Offset}/{s.Length}/{string.Join('+', s.Mods)}"))}"))}]"
        + $" follows [{(r.Follows is null ? "" : Describe(r.Follows))}]";

    [Test]
    public void AModFileRewrittenInPlace_SameSize_IsResolvedAgain_AndServed()
    {
        var (game, mods) = CopyOfPersona();
        var setup = Setup(game, mods);
        Resolve(setup);
        var font = Path.Combine(_dir["mods/font-l10n"], "P5REssentials/CPK/EN.CPK/FONT/FONT0.FNT");
        var bytes = File.ReadAllBytes(font);
        bytes[0] ^= 0xFF;
        var modified = File.GetLastWriteTimeUtc(font);
        File.WriteAllBytes(font, bytes);
        File.SetLastWriteTimeUtc(font, modified); // as `cp -p` or an unzip leaves it: only the ctime moved

        var again = Resolve(setup);

        Assert.That(again.FromCache, Is.False);
        var served = CpkEntries(Serve(setup, "CPK/EN.CPK"));
        Assert.That(served["FONT/FONT0.FNT"], Is.EqualTo(bytes));
    }

    [Test]
    public void AModFileAdded_IsResolvedAgain_AndApplied()
    {
        var (game, mods) = CopyOfPersona();
        var setup = Setup(game, mods);
        Resolve(setup);
        // font-l10n comes after crifs-model: its copy of the model wins, in BASE.CPK which holds that path.
        var model = _dir.Write("mods/font-l10n/P5REssentials/CPK/EN.CPK/MODEL/CHARACTER/0001/C0001_000_00.GMD", TestData.Random(77, 300));

        var again = Resolve(setup);

        Assert.That(again.FromCache, Is.False);
        Assert.That(CpkEntries(Serve(setup, "CPK/BASE.CPK"))["MODEL/CHARACTER/0001/C0001_000_00.GMD"], Is.EqualTo(File.ReadAllBytes(model)));
    }

    [Test]
    public void AGameFileChanged_OrALanguageChosen_IsResolvedAgain()
    {
        var (game, mods) = CopyOfPersona();
        var setup = Setup(game, mods);
        Resolve(setup);
        Assert.That(Resolve(setup with { Language = new LanguageChoice("es", "test") }).FromCache, Is.False, "another language");
        Assert.That(Resolve(setup).FromCache, Is.True);

        File.SetLastWriteTimeUtc(Path.Combine(game, "CPK/BASE.CPK"), DateTime.UtcNow.AddMinutes(-5));
        Assert.That(Resolve(setup).FromCache, Is.False, "BASE.CPK's identity moved");
        _dir.Write("game/CPK/NEW.CPK", [1, 2, 3]);
        Assert.That(Resolve(setup).FromCache, Is.False, "a new game file: a mod path may now be spelled by it");
    }

    [Test]
    public void ADecodedEntryRemovedFromTheCacheFolder_MakesThePlanStale_AndIsDecodedAgain()
    {
        // UNIT.TBL stored CRILAYLA-compressed: two mods merge it, so routing decodes the original into the cache folder, and
        // the kept plan's merged table reads runs of that decoded file.
        byte[][] segments = [new byte[68 * 8], new byte[2 * 40], new byte[2 * 40], TestData.Random(3, 17), new byte[2 * 20], TestData.Random(4, 50)];
        byte[][] Edited(int at, byte value)
        {
            var copy = segments.Select(x => x.ToArray()).ToArray();
            copy[0][at] = value;
            return copy;
        }
        _dir.Write("game/P5R.exe", [0x4D, 0x5A]);
        _dir.Write("game/CPK/EN.CPK", TestSupport.Cri.CpkTestWriter.WriteNamed([new("BATTLE/TABLE", "UNIT.TBL", PersonaTableWriter.Tbl(segments), Compress: true)]));
        var a = _dir.Write("a/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(Edited(68 * 2 + 30, 0x11)));
        var b = _dir.Write("b/CRIFsV2Hook/CPK/EN.CPK/BATTLE/TABLE/UNIT.TBL", PersonaTableWriter.Tbl(Edited(68 * 5 + 50, 0x44)));
        var setup = Setup(_dir["game"], [_dir["a"], _dir["b"]]);
        Resolve(setup);
        Assert.That(Resolve(setup).FromCache, Is.True);

        foreach (var decoded in Directory.GetFiles(_dir["cache/decoded"]))
            File.Delete(decoded); // as `cache gc` does with decoded entries unused for long

        var again = Resolve(setup);
        Assert.That(again.FromCache, Is.False);
        var expected = ReferenceTableMerger.MergeTbl(PersonaTableWriter.Tbl(segments), [("a", File.ReadAllBytes(a)), ("b", File.ReadAllBytes(b))],
            PersonaTableWriter.P5RLayouts.Unit);
        var served = TestSupport.Cri.CpkIndependentReader.Read(Serve(setup, "CPK/EN.CPK")).Entries.Single();
        Assert.That(served.ContentSha256, Is.EqualTo(TestSupport.AfsIndependentReader.Sha256(expected)));
    }

    [Test]
    public void AGameCpkNoRouteReads_RewrittenToHoldAModsPath_IsResolvedAgain_AndTheFileApplied()
    {
        // The walk read DATA.CPK's table of contents to find the mod's path, found nothing, and warned: the plan names no file
        // of DATA.CPK, so only the key (every game file's identity) sees it change.
        _dir.Write("game/DATA.CPK", TestSupport.Cri.CpkTestWriter.WriteNamed([new("ETC", "OTHER.BIN", TestData.Random(1, 64))]));
        var mod = _dir.Write("mod/CRIFsV2Hook/CPK/Joker/ETC/NEW.BIN", TestData.Random(2, 64));
        var setup = Setup(_dir["game"], [_dir["mod"]]);
        Assert.That(Resolve(setup).Warnings, Has.Some.Contains("no CPK of the game holds"));

        _dir.Write("game/DATA.CPK", TestSupport.Cri.CpkTestWriter.WriteNamed([new("ETC", "NEW.BIN", TestData.Random(1, 64))])); // same size

        var again = Resolve(setup);
        Assert.That(again.FromCache, Is.False);
        Assert.That(again.Warnings, Is.Empty);
        Assert.That(PersonaSample.Entries(Serve(setup, "DATA.CPK"))["ETC/NEW.BIN"], Is.EqualTo(File.ReadAllBytes(mod)));
    }

    [Test]
    public void ADamagedPlan_IsReplaced_WithOneWarning()
    {
        var setup = Setup(PersonaSample.Game, PersonaSample.Mods);
        Resolve(setup);
        var plan = Directory.GetFiles(_dir["cache/plans"], "*.plan").Single();
        var bytes = File.ReadAllBytes(plan);
        File.WriteAllBytes(plan, bytes[..(bytes.Length / 2)]);

        var again = Resolve(setup);

        Assert.That(again.FromCache, Is.False);
        Assert.That(_warnings, Has.Count.EqualTo(1).And.Some.Contains(plan).And.Some.Contains("damaged"));
        Assert.That(File.ReadAllBytes(plan), Is.EqualTo(bytes), "kept again, whole");
        Assert.That(Resolve(setup).FromCache, Is.True);
    }

    [Test]
    public void AKeptPlan_IsSealedInTheCachesEnvelope_AndAFlippedPayloadByteIsDamage()
    {
        // Issue 49: one envelope for what the cache folder keeps, read here by hand (magic, version, reserved, length, payload, xxHash3).
        var setup = Setup(PersonaSample.Game, PersonaSample.Mods);
        Resolve(setup);
        var plan = Directory.GetFiles(_dir["cache/plans"], "*.plan").Single();
        var bytes = File.ReadAllBytes(plan);
        Assert.That(bytes[..8], Is.EqualTo("AEPLAN\0\0"u8.ToArray()));
        Assert.That(System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(8)), Is.EqualTo(3));
        long length = System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(16));
        Assert.That(length, Is.EqualTo(bytes.Length - 32));
        Assert.That(System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan(bytes.Length - 8)),
            Is.EqualTo(System.IO.Hashing.XxHash3.HashToUInt64(bytes.AsSpan(24, (int)length))));
        var key = Path.GetFileNameWithoutExtension(plan); // the payload begins with the key, as BinaryWriter writes a string
        Assert.That(bytes[25..(25 + key.Length)], Is.EqualTo(System.Text.Encoding.UTF8.GetBytes(key)));

        bytes[24 + (int)length / 2] ^= 0x40;
        File.WriteAllBytes(plan, bytes);
        Assert.That(Resolve(setup).FromCache, Is.False);
        Assert.That(_warnings, Has.Count.EqualTo(1).And.Some.Contains("damaged (checksum mismatch)"), string.Join("\n", _warnings));
    }

    [Test]
    public void TwoPlansRenamedOntoEachOthersNames_AreDamaged_AndEachGameServesItsOwnMods()
    {
        // Issue 48: a copied or synced cache folder can do this; each game then served the other's mods with exit 0.
        var withFont = Setup(PersonaSample.Game, [PersonaSample.Mod("essentials-font")]);
        var withUnit = Setup(PersonaSample.Game, [PersonaSample.Mod("unit-hp")]);
        Resolve(withFont);
        var fontPlan = Directory.GetFiles(_dir["cache/plans"], "*.plan").Single();
        Resolve(withUnit);
        var unitPlan = Directory.GetFiles(_dir["cache/plans"], "*.plan").Single(p => p != fontPlan);
        File.Move(fontPlan, _dir["swap"]);
        File.Move(unitPlan, fontPlan);
        File.Move(_dir["swap"], unitPlan);

        var font = Resolve(withFont);
        var unit = Resolve(withUnit);

        Assert.That((font.FromCache, unit.FromCache), Is.EqualTo((false, false)), "resolved again");
        Assert.That(font.Mods, Is.EqualTo(new[] { Path.GetFullPath(PersonaSample.Mod("essentials-font")) })); // as the plan spells it (backslashes on Windows)
        Assert.That(unit.Mods, Is.EqualTo(new[] { Path.GetFullPath(PersonaSample.Mod("unit-hp")) }));
        Assert.That(_warnings, Has.Count.EqualTo(2), string.Join("\n", _warnings));
        Assert.That(_warnings[0], Does.StartWith($"{fontPlan}: kept route plan is damaged (it was stored under key {Path.GetFileNameWithoutExtension(unitPlan)}, not {Path.GetFileNameWithoutExtension(fontPlan)})"));
        Assert.That((Resolve(withFont).FromCache, Resolve(withUnit).FromCache), Is.EqualTo((true, true)), "each kept again under its own key");
    }

    [Test]
    public void NoCacheFolder_KeepsNoPlan_AndCacheClear_DropsThem()
    {
        var setup = Setup(PersonaSample.Game, PersonaSample.Mods, cache: false);
        Assert.That(Resolve(setup).FromCache, Is.False);
        Assert.That(Resolve(setup).FromCache, Is.False);

        var cached = Setup(PersonaSample.Game, PersonaSample.Mods);
        Resolve(cached);
        Assert.That(Directory.GetFiles(_dir["cache/plans"]), Has.Length.EqualTo(1));
        cached.Cache!.Clear();
        Assert.That(Directory.Exists(_dir["cache/plans"]), Is.False);
        Assert.That(Resolve(cached).FromCache, Is.False);
    }

    [Test]
    public void AReaderThatOnlyReadsTheCache_KeepsNoPlan_ButUsesOneKept()
    {
        var reader = Setup(PersonaSample.Game, PersonaSample.Mods) with { StorePlan = false };
        Assert.That(Resolve(reader).FromCache, Is.False);
        Assert.That(Directory.Exists(_dir["cache/plans"]), Is.False, "cat and ls write nothing into the cache");

        Resolve(reader with { StorePlan = true }); // a build
        Assert.That(Resolve(reader).FromCache, Is.True);
    }

    [Test]
    public void OnlyTheMostRecentPlans_AreKept()
    {
        // Kept + 1 setups that differ in language or in how many of the mods they take: each its own key.
        var setups = Enumerable.Range(0, PlanStore.Kept + 1).Select(i => Setup(PersonaSample.Game,
            PersonaSample.Mods.Take(1 + i / LanguageIds.Known.Count).ToArray(), LanguageIds.Known[i % LanguageIds.Known.Count])).ToArray();
        foreach (var setup in setups)
        {
            Resolve(setup);
            Thread.Sleep(10); // distinct mtimes: the most recently used are kept
        }
        Assert.That(Directory.GetFiles(_dir["cache/plans"], "*.plan"), Has.Length.EqualTo(PlanStore.Kept));
        Assert.That(Resolve(setups[^1]).FromCache, Is.True);
        Assert.That(Resolve(setups[0]).FromCache, Is.False, "the oldest was dropped");
    }

    private static Dictionary<string, byte[]> CpkEntries(string path) => PersonaSample.Entries(path);
}
