using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Commands;

/// <summary>The <c>--game DIR --mod DIR… [--cache DIR] [--no-cache] [--verify-content]</c> options the archive commands share.</summary>
internal static class GameArguments
{
    public static readonly string[] ValueOptions = ["game", "mod", "cache"];
    public static readonly string[] FlagOptions = ["no-cache", "verify-content"];

    /// <summary>Resolves the routes; the game reads from the cache (default folder unless --cache) unless --no-cache.</summary>
    public static EmulatedGame Resolve(CommandLine cl, CliConsole console)
    {
        var game = cl.Required("game");
        var mods = cl.All("mod");
        if (mods.Count == 0)
            throw new UsageException("missing --mod (give at least one mod folder)");
        if (cl.Flag("no-cache") && cl.Value("cache") is not null)
            throw new UsageException("--cache and --no-cache contradict each other");
        var plan = new ModRouter(game, mods).Resolve();
        return new EmulatedGame(plan)
        {
            Cache = OpenCache(cl, console),
            VerifyContent = cl.Flag("verify-content"),
        };
    }

    public static MergedFileCache? OpenCache(CommandLine cl, CliConsole console) =>
        cl.Flag("no-cache") ? null : new MergedFileCache(cl.Value("cache") ?? MergedFileCache.DefaultFolder(),
            new CacheOptions(Warn: message => console.Error.WriteLine($"archiveemu: warning: {message}")));
}
