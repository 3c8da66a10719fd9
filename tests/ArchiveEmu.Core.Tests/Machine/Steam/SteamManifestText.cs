namespace ArchiveEmu.Core.Tests.Machine.Steam;

/// <summary>Steam appmanifest text as Steam writes it (tabs, quoted keys, nested blocks, escaped backslashes), built by the tests.</summary>
internal static class SteamManifestText
{
    /// <summary>A manifest for <paramref name="installDir"/>; a null language leaves that block out.</summary>
    public static string For(string appId, string installDir, string? userLanguage, string? mountedLanguage = null) =>
        $$"""
        "AppState"
        {
        	"appid"		"{{appId}}"
        	"Universe"		"1"
        	"LauncherPath"		"C:\\Program Files (x86)\\Steam\\steam.exe"
        	"name"		"Persona 5 Royal"
        	"StateFlags"		"4"
        	"installdir"		"{{installDir}}"
        	"LastUpdated"		"1731000000"
        	"SizeOnDisk"		"41234567890"
        	"buildid"		"16152243"
        	"InstalledDepots"
        	{
        		"{{appId}}1"
        		{
        			"manifest"		"6290836516436925283"
        			"size"		"41234567890"
        		}
        	}
        {{Block("UserConfig", userLanguage)}}
        {{Block("MountedConfig", mountedLanguage ?? userLanguage)}}
        }
        """;

    private static string Block(string name, string? language) =>
        language is null ? "" : $"\t\"{name}\"\n\t{{\n\t\t\"language\"\t\t\"{language}\"\n\t}}";
}
