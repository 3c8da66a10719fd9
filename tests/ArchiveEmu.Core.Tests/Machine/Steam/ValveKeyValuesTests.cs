using ArchiveEmu.Core.Machine.Steam;
using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Core.Tests.Machine.Steam;

public sealed class ValveKeyValuesTests
{
    [Test]
    public void Parse_ASteamManifest_ReadsNestedBlocksAndUnescapesBackslashes()
    {
        var appState = ValveKeyValues.Parse(SteamManifestText.For("1687950", "P5R", "spanish", "english"))["AppState"]!;
        Assert.That(appState.ValueAt("installdir"), Is.EqualTo("P5R"));
        Assert.That(appState.ValueAt("UserConfig", "language"), Is.EqualTo("spanish"));
        Assert.That(appState.ValueAt("MountedConfig", "language"), Is.EqualTo("english"));
        Assert.That(appState.ValueAt("InstalledDepots", "16879501", "size"), Is.EqualTo("41234567890"));
        Assert.That(appState.ValueAt("LauncherPath"), Is.EqualTo(@"C:\Program Files (x86)\Steam\steam.exe"));
    }

    [Test]
    public void Parse_KeysInAnyLetterCase_AreFound()
    {
        var root = ValveKeyValues.Parse("\"appstate\" { \"USERCONFIG\" { \"Language\" \"french\" } }");
        Assert.That(root.ValueAt("AppState", "UserConfig", "language"), Is.EqualTo("french"));
    }

    [Test]
    public void Parse_CommentsConditionsBareWordsAndQuotedEscapes_AreReadAsValveWritesThem()
    {
        const string text = """
            // written by hand
            "AppState" // the game
            {
                installdir P5R
                "name" "A \"quoted\" name\tand tab" [$WIN32]
                "path" "a\\b"
            }
            """;
        var appState = ValveKeyValues.Parse(text)["AppState"]!;
        Assert.That(appState.Children.Select(c => (c.Key, c.Value)), Is.EqualTo(new (string, string?)[]
        {
            ("installdir", "P5R"), ("name", "A \"quoted\" name\tand tab"), ("path", @"a\b"),
        }));
    }

    [Test]
    public void ValueAt_ABlockOrAMissingKey_IsNull()
    {
        var root = ValveKeyValues.Parse(SteamManifestText.For("1", "Game", userLanguage: null));
        Assert.That((root.ValueAt("AppState", "InstalledDepots"), root.ValueAt("AppState", "UserConfig", "language")), Is.EqualTo(((string?)null, (string?)null)));
    }

    [TestCase("\"AppState\"\n{\n\t\"installdir\" \"P5R\"\n", "line 4: a block is not closed ('}' missing)")]
    [TestCase("\"AppState\" { \"installdir\" \"P5R }", "line 1: a quoted string is not closed")]
    [TestCase("\"AppState\" { }\n}", "line 2: '}' closes no block")]
    [TestCase("\"AppState\" { \"installdir\" }", "line 1: the key \"installdir\" has no value")]
    [TestCase("{ \"a\" \"b\" }", "line 1: a key was expected, not '{'")]
    public void Parse_GarbledText_IsOneErrorNamingTheLine(string text, string message) =>
        Assert.That(() => ValveKeyValues.Parse(text), Throws.InstanceOf<InvalidDataException>().With.Message.EqualTo(message));
}
