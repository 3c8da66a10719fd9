using ArchiveEmu.Cli.Release;

namespace ArchiveEmu.Cli.Tests.Release;

public class ReleaseVersionTests
{
    // Semantic Versioning 2.0's own example of precedence (semver.org, item 11), then what archiveemu's builds say.
    private static readonly string[] Ascending =
    [
        "0.1.0", "0.2.0-dev", "0.2.0", "0.10.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
        "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1",
    ];

    [Test]
    public void Versions_are_ordered_as_semantic_versioning_orders_them()
    {
        for (var i = 0; i < Ascending.Length; i++)
            for (var j = 0; j < Ascending.Length; j++)
                Assert.That(Math.Sign(Parse(Ascending[i]).CompareTo(Parse(Ascending[j]))), Is.EqualTo(Math.Sign(i.CompareTo(j))),
                    $"{Ascending[i]} against {Ascending[j]}");
    }

    [Test]
    public void The_commit_after_a_plus_names_the_build_and_does_not_order_it()
    {
        var a = Parse("0.2.0-dev+1a2b3c4");
        Assert.That(a.CompareTo(Parse("0.2.0-dev+ffffff0")), Is.EqualTo(0));
        Assert.That(a.CompareTo(Parse("0.2.0")), Is.LessThan(0));
        Assert.That(a.Core, Is.EqualTo("0.2.0-dev"));
        Assert.That(a.Text, Is.EqualTo("0.2.0-dev+1a2b3c4"));
    }

    [TestCase("")]
    [TestCase("unknown")]
    [TestCase("1.2")]
    [TestCase("1.2.3.4")]
    [TestCase("v1.2.3")]
    [TestCase("1.2.3-")]
    [TestCase("1.2.3-a..b")]
    [TestCase("1.2.3 x")]
    [TestCase("1.2.3/../x")]
    [TestCase("-1.2.3")]
    [TestCase("99999999999.0.0")]
    public void What_is_not_a_version_is_refused(string text) => Assert.That(ReleaseVersion.TryParse(text), Is.Null);

    private static ReleaseVersion Parse(string text) => ReleaseVersion.TryParse(text) ?? throw new AssertionException($"{text} did not parse");
}
