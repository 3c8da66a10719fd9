using ArchiveEmu.Core.MergedCache;
using Microsoft.Extensions.Configuration;

namespace ArchiveEmu.Host.Tests;

public sealed class MountOptionsTests
{
    [Test]
    public void Validate_NothingSet_NamesEveryMissingSetting()
    {
        var problems = new MountOptions().Validate();
        Assert.That(problems, Has.Some.Contains("no game folder"));
        Assert.That(problems, Has.Some.Contains("no mount point"));
    }

    [Test]
    public void Validate_MissingFoldersAndBadPolicy_NamesEachOne()
    {
        var options = new MountOptions
        {
            Game = "/nonexistent/game",
            Mods = { "/nonexistent/mod-a" },
            MountPoint = "/mnt/x",
            Merge = "sometimes",
        };
        var problems = options.Validate();
        Assert.That(problems, Has.Some.Contains("/nonexistent/game: game folder not found"));
        Assert.That(problems, Has.Some.Contains("/nonexistent/mod-a: mod folder not found"));
        Assert.That(problems, Has.Some.Contains("'sometimes'"));
    }

    [Test]
    public void Validate_UnknownFuseMode_IsNamed()
    {
        var temp = Path.GetTempPath();
        var options = new MountOptions { Game = temp, MountPoint = "/mnt/x", Fuse = "fast" };
        Assert.That(options.Validate(), Is.EqualTo(new[] { "Fuse takes auto, kernel or libfuse, not 'fast'" }));
    }

    [TestCase("auto", CompressionChoice.Auto)]
    [TestCase("lz4", CompressionChoice.Lz4)]
    [TestCase("none", CompressionChoice.None)]
    public void Compression_TheBuildsWords_PickTheChoice(string word, CompressionChoice expected)
    {
        var options = new MountOptions { Game = Path.GetTempPath(), MountPoint = "/mnt/x", Compression = word };
        Assert.That((options.Validate(), options.Serving().CompressionChoice), Is.EqualTo((Array.Empty<string>(), expected)));
    }

    [Test]
    public void Compression_ByDefault_IsAuto() => Assert.That(new MountOptions().Serving().CompressionChoice, Is.EqualTo(CompressionChoice.Auto));

    [Test]
    public void Validate_UnknownCompression_IsNamed()
    {
        var options = new MountOptions { Game = Path.GetTempPath(), MountPoint = "/mnt/x", Compression = "zstd" };
        Assert.That(options.Validate(), Is.EqualTo(new[] { "Compression takes auto, lz4 or none, not 'zstd'" }));
    }

    [Test]
    public void SettingValues_AMalformedCompression_IsOneLineAsTheOptionSaysIt()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["ArchiveEmu:Compression"] = "sometimes" }).Build();
        Assert.That(SettingValues.Problem(configuration), Is.EqualTo("ArchiveEmu:Compression takes auto, lz4 or none, not 'sometimes'"));
    }

    [TestCase("auto")]
    [TestCase("lz4")]
    [TestCase("none")]
    public void SettingValues_EveryCompressionWord_IsTaken(string word)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["ArchiveEmu:Compression"] = word }).Build();
        Assert.That(SettingValues.Problem(configuration), Is.Null);
    }

    [Test]
    public void Validate_ExistingFolders_HasNoProblems()
    {
        var temp = Path.GetTempPath();
        var options = new MountOptions { Game = temp, Mods = { temp }, MountPoint = "/mnt/x", Merge = "never" };
        Assert.That(options.Validate(), Is.Empty);
    }

    [Test]
    public void Validate_AlwaysMergeWithoutCacheAndBadNumbers_NamesEachOne()
    {
        var temp = Path.GetTempPath();
        var options = new MountOptions { Game = temp, MountPoint = "/mnt/x", Merge = "always", NoCache = true, Threads = 0, ReadAheadKb = -1 };
        var problems = options.Validate();
        Assert.That(problems, Has.Some.Contains("needs the cache"));
        Assert.That(problems, Has.Some.Contains("Threads 0"));
        Assert.That(problems, Has.Some.Contains("ReadAheadKb -1"));
    }

    // The policy by name: MergePolicy is internal, and a public test method cannot take it.
    [TestCase("auto", nameof(Core.MergedCache.Policy.MergePolicy.Auto))]
    [TestCase("always", nameof(Core.MergedCache.Policy.MergePolicy.Always))]
    [TestCase("never", nameof(Core.MergedCache.Policy.MergePolicy.Never))]
    public void Policy_FollowsTheMergeSetting(string merge, string expected) =>
        Assert.That(new MountOptions { Merge = merge }.Serving().Policy, Is.EqualTo(Enum.Parse<Core.MergedCache.Policy.MergePolicy>(expected)));

    [Test]
    public void Language_TheHostSetting_IsBoundAndChoosesInTheFrameworksSpelling()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["ArchiveEmu:Game"] = Path.GetTempPath(), ["ArchiveEmu:Language"] = "ZH-hans" }).Build();
        var options = configuration.GetSection(MountOptions.Section).Get<MountOptions>()!;
        Assert.That((options.Language, options.Request().Setup(cache: null, _ => { }).Language.ToString()), Is.EqualTo(("ZH-hans", "zh-Hans (ArchiveEmu:Language)")));
    }

    [Test]
    public void Language_Unset_IsSteamsRecordForTheGameFolder()
    {
        using var dir = new TestSupport.TempDirectory("host-language");
        var game = Path.Combine(dir.Path, "steamapps", "common", "P5R");
        Directory.CreateDirectory(game);
        var manifest = dir.Write("steamapps/appmanifest_1687950.acf",
            System.Text.Encoding.UTF8.GetBytes("\"AppState\" { \"installdir\" \"P5R\" \"UserConfig\" { \"language\" \"japanese\" } }"));
        var options = new MountOptions { Game = game, MountPoint = "/mnt/x" };
        Assert.That(options.Request().Setup(cache: null, _ => { }).Language.ToString(), Is.EqualTo($"ja (Steam: {manifest}, UserConfig language \"japanese\")"));
    }

    [Test]
    public void Validate_AnUnknownLanguage_IsOneLineListingTheIds()
    {
        var options = new MountOptions { Game = Path.GetTempPath(), MountPoint = "/mnt/x", Language = "klingon" };
        Assert.That(options.Validate(), Is.EqualTo(new[]
        {
            "Language takes en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant or zh-Hans, not 'klingon'",
        }));
    }

    [TestCase("klingon", "ArchiveEmu:Language takes en, de, es, fr, it, ja, ko, pl, pt, ru, tr, zh-Hant or zh-Hans, not 'klingon'")]
    [TestCase("ZH-hans", null)]
    [TestCase("", null)]
    public void SettingValues_TheLanguage_IsAnIdInAnyCaseOrEmpty(string value, string? problem)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["ArchiveEmu:Language"] = value }).Build();
        Assert.That(SettingValues.Problem(configuration), Is.EqualTo(problem));
    }
}
