using System.Text.RegularExpressions;
using ArchiveEmu.Cli.Commands;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>
/// Issue 48, docs/DOCTOR.md says what <c>doctor</c> takes today: its synopsis is the command's own usage line and names every
/// option <c>doctor --help</c> lists, and no sentence promises options "when they are added" that exist already.
/// </summary>
public sealed partial class DoctorDocumentTests
{
    private static readonly string Document = File.ReadAllText(Path.Combine(RepositoryFiles.Root, "docs", "DOCTOR.md"));

    /// <summary>The synopsis: the line of the first code block that gives doctor options, its comment (if any) cut off.</summary>
    private static string Synopsis() => Document.Split('\n').SkipWhile(l => l != "```").Skip(1).TakeWhile(l => l != "```")
        .Select(l => l.Split('#')[0].TrimEnd()).Single(l => l.StartsWith("archiveemu doctor --", StringComparison.Ordinal)
                                                            || l.StartsWith("archiveemu doctor [--", StringComparison.Ordinal));

    [Test]
    public void TheSynopsis_IsDoctorsUsageLine() => Assert.That(Synopsis(), Is.EqualTo(new DoctorCommand().Usage));

    [Test]
    public void TheSynopsis_NamesEveryOptionOfDoctorsHelp()
    {
        var help = CliRun.Run("doctor", "--help");
        Assert.That(help.ExitCode, Is.Zero, help.ToString());
        var options = OptionName().Matches(help.Out).Select(m => m.Groups[1].Value).Where(o => o != "--help").ToList();
        Assert.That(options, Is.EquivalentTo(new[] { "--game", "--mod", "--cache", "--no-cache", "--language", "--reloaded", "--reloaded-dir", "--profile", "--json" }));
        Assert.That(options.Where(o => !Regex.IsMatch(Synopsis(), $@"{Regex.Escape(o)}(?![\w-])")), Is.Empty);
    }

    [Test]
    public void NoSentencePromisesOptionsForLater() =>
        Assert.That(Regex.Replace(Document, @"\s+", " "), Does.Not.Contain("when those options are added")); // lines wrap anywhere

    [GeneratedRegex(@"^  (?:-\?, -h, )?(--[a-z-]+)", RegexOptions.Multiline)]
    private static partial Regex OptionName();
}
