using ArchiveEmu.Cli.Release;

namespace ArchiveEmu.Cli.Tests.Release;

public class ChangesSectionsTests
{
    private const string Changes = """
        # Changes

        Intro text.

        ## 0.4.0

        - four

        ## 0.3.0 (a name)

        - three
        - more of three

        ## 0.2.0

        - two

        ## 0.1.0

        - one
        """;

    [Test]
    public void An_update_prints_the_sections_after_the_installed_version_up_to_the_new_one()
    {
        var between = ChangesSections.Between(Changes, Version("0.1.0"), Version("0.3.0"));
        Assert.That(between, Is.EqualTo("## 0.3.0 (a name)\n\n- three\n- more of three\n\n## 0.2.0\n\n- two"));
    }

    [Test]
    public void A_dev_build_of_a_version_gets_that_version_s_section()
    {
        Assert.That(ChangesSections.Between(Changes, Version("0.2.0-dev+abc1234"), Version("0.2.0")), Is.EqualTo("## 0.2.0\n\n- two"));
    }

    [Test]
    public void Windows_line_ends_give_the_same_sections()
    {
        Assert.That(ChangesSections.Between(Changes.ReplaceLineEndings("\r\n"), Version("0.3.0"), Version("0.4.0")), Is.EqualTo("## 0.4.0\n\n- four"));
    }

    [Test]
    public void Nothing_between_is_empty() =>
        Assert.That(ChangesSections.Between(Changes, Version("0.4.0"), Version("0.4.0")), Is.Empty);

    private static ReleaseVersion Version(string text) => ReleaseVersion.TryParse(text)!;
}
