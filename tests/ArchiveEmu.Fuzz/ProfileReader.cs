using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Profiles;

namespace ArchiveEmu.Fuzz;

/// <summary>
/// The <c>profile</c> target (issue 48): a profile file read as <c>profile show</c> and <c>--profile NAME</c> read it
/// (<see cref="ProfileStore.Read"/>), then its paths checked as <c>--profile</c> checks them next (mods inside the game folder).
/// Documented for a damaged file: an <see cref="InvalidDataException"/> naming it and what is wrong.
/// </summary>
internal static class ProfileReader
{
    private const string ProfileJson = """
        {
          "game": "/games/p5r",
          "mods": [
            "/mods/hd",
            "/mods/ui"
          ],
          "reloaded": false,
          "reloadedDir": null,
          "options": {
            "merge": "auto",
            "compress": "none",
            "ignoreCase": true,
            "language": "en",
            "cache": "/cache/p5r"
          }
        }
        """;

    public static IReadOnlyList<(string Name, byte[] Bytes)> Seeds() => [.. JsonSeeds.Variants("profile", ProfileJson, "mods")];

    public static void Run(byte[] bytes, string scratch)
    {
        var path = Path.Combine(scratch, "fuzz.json");
        ScratchFile.Write(path, bytes);
        Profile profile;
        try
        {
            profile = ProfileStore.Read(path);
        }
        catch (InvalidDataException)
        {
            return;
        }
        _ = ModFolders.InsideTheGame(profile.Game, profile.Mods);
    }
}
