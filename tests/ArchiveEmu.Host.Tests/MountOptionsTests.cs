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
    public void Validate_ExistingFolders_HasNoProblems()
    {
        var temp = Path.GetTempPath();
        var options = new MountOptions { Game = temp, Mods = { temp }, MountPoint = "/mnt/x", Merge = "never" };
        Assert.That(options.Validate(), Is.Empty);
    }
}
