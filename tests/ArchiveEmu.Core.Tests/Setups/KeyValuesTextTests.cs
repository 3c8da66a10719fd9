using ArchiveEmu.Core.Setups.ReloadedII;

namespace ArchiveEmu.Core.Tests.Setups;

/// <summary>Valve's KeyValues text as Steam writes libraryfolders.vdf and appmanifest_*.acf.</summary>
public sealed class KeyValuesTextTests
{
    [Test]
    public void Parse_NestedBlocksEscapesAndComments_ReadsEveryPair()
    {
        var text = "// written by Steam\n\"libraryfolders\"\n{\n\t\"0\"\n\t{\n\t\t\"path\"\t\t\"E:\\\\Steam \\\"Library\\\"\"\n"
            + "\t\t\"apps\" { \"1687950\" \"42\" }\n\t}\n\tunquoted value [$WIN32]\n}\n";

        var root = KeyValuesText.Parse(text, "libraryfolders.vdf");

        var folders = root["LibraryFolders"]!;
        Assert.That(folders.Children.Select(c => c.Key), Is.EqualTo(new[] { "0", "unquoted" }));
        Assert.That(folders["0"]!.Text("PATH"), Is.EqualTo("E:\\Steam \"Library\""));
        Assert.That(folders["0"]!["apps"]!.Text("1687950"), Is.EqualTo("42"));
        Assert.That(folders.Text("unquoted"), Is.EqualTo("value"));
        Assert.That(folders.Text("0"), Is.Null, "a block has no text");
    }

    [TestCase("\"AppState\"\n{\n\t\"appid\" \"1\"\n", "line 4: a block is not closed (a '}' is missing)")]
    [TestCase("\"AppState\"\n{\n\t\"appid\"\n}\n", "line 4: the key \"appid\" has no value")]
    [TestCase("\"AppState\" \"x\" }", "line 1: a '}' closes no block")]
    [TestCase("\"AppState\" \"x\n\n", "line 1: a quoted string is not closed")]
    public void Parse_BrokenText_FailsNamingTheFileAndLine(string text, string what)
    {
        var e = Assert.Throws<InvalidDataException>(() => KeyValuesText.Parse(text, "/s/appmanifest_1.acf"));

        Assert.That(e!.Message, Is.EqualTo($"/s/appmanifest_1.acf: not KeyValues text as Steam writes it, {what}"));
    }
}
