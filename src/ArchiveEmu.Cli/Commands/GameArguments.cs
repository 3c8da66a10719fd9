using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Commands;

/// <summary>The <c>--game DIR --mod DIR…</c> pair the archive commands share.</summary>
internal static class GameArguments
{
    public static readonly string[] ValueOptions = ["game", "mod"];

    public static EmulatedGame Resolve(CommandLine cl)
    {
        var game = cl.Required("game");
        var mods = cl.All("mod");
        if (mods.Count == 0)
            throw new UsageException("missing --mod (give at least one mod folder)");
        return EmulatedGame.Resolve(game, mods);
    }
}
