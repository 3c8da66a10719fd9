using ArchiveEmu.Cli.Doctor;

namespace ArchiveEmu.Cli.Tests.Doctor;

/// <summary>Issue 51: a Steam launch option split as sh splits it, so the program doctor names is the one Steam's shell starts.</summary>
public sealed class ShellWordsTests
{
    private static string[] Words(string line) => ShellWords.Split(line, "/home/deck", out _)!.Select(w => w.Text).ToArray();

    [Test]
    public void Quotes_KeepBlanksInAWord_SingleQuotesTakeEverythingAsItIs()
    {
        Assert.That(Words("\"/opt/My Games/archiveemu\" run -- %command%"), Is.EqualTo(new[] { "/opt/My Games/archiveemu", "run", "--", "%command%" }));
        Assert.That(Words("'/opt/a \\\"b'/archiveemu"), Is.EqualTo(new[] { "/opt/a \\\"b/archiveemu" }));
        Assert.That(Words("/opt/My\\ Games/archiveemu\t%command%"), Is.EqualTo(new[] { "/opt/My Games/archiveemu", "%command%" }));
        Assert.That(Words("\"a\\\"b\\x\""), Is.EqualTo(new[] { "a\"b\\x" }), "in double quotes a backslash escapes only $ ` \" \\");
    }

    [Test]
    public void TheHomeFolder_IsExpandedAsShExpandsIt()
    {
        Assert.That(Words("~/.local/bin/archiveemu \"$HOME/bin\" ${HOME}/x '$HOME' a~/b $HOMEDIR"),
            Is.EqualTo(new[] { "/home/deck/.local/bin/archiveemu", "/home/deck/bin", "/home/deck/x", "$HOME", "a~/b", "$HOMEDIR" }));
    }

    [Test]
    public void EachWord_KnowsWhereItStandsInTheLine()
    {
        const string line = "A=1  \"x y\" %command%";
        var words = ShellWords.Split(line, "/home/deck", out _)!;
        Assert.That(words.Select(w => line[w.Start..w.End]), Is.EqualTo(new[] { "A=1", "\"x y\"", "%command%" }));
    }

    [Test]
    public void AnUnclosedQuote_IsNoWordsAndWhy()
    {
        Assert.That(ShellWords.Split("\"/opt/archiveemu run", "/home/deck", out var problem), Is.Null);
        Assert.That(problem, Is.EqualTo("a \" quote is not closed"));
        Assert.That(ShellWords.Split("'x", "/home/deck", out problem), Is.Null);
        Assert.That(problem, Is.EqualTo("a ' quote is not closed"));
    }

    [Test]
    public void Assignments_AreNameEqualsValue()
    {
        Assert.That(new[] { "PROTON_LOG=1", "_X=", "A1=b=c" }.Select(ShellWords.IsAssignment), Is.All.True);
        Assert.That(new[] { "=1", "1A=x", "/opt/a=b/archiveemu", "archiveemu", "--x=1" }.Select(ShellWords.IsAssignment), Is.All.False);
    }

    [Test]
    public void Quoted_IsOneWordForSh() =>
        Assert.That(ShellWords.Quoted("/opt/a \"b\" $c `d` \\e"), Is.EqualTo("\"/opt/a \\\"b\\\" \\$c \\`d\\` \\\\e\""));
}
