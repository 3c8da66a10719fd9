namespace ArchiveEmu.Host.Requests;

/// <summary>
/// What <c>archiveemu mount</c> and <c>run</c> hand the host (<see cref="MountHost.Run(MountRequest, Func{int}?)"/>): the game
/// request, where to serve it (<see cref="MountPoint"/>, or over the game folder itself when null) and the mount settings their
/// command line gives. The host's appsettings.json and ARCHIVEEMU_ variables lie under it: what it leaves unset, they decide.
/// </summary>
internal sealed record MountRequest(GameRequest Game, string? MountPoint)
{
    /// <summary>Letter case ignored when neither the command line nor the profile says (<c>run</c>: Wine asks for Windows spellings).</summary>
    public bool IgnoreCaseByDefault { get; init; }

    /// <summary>Bytes the cache's packs may take (<c>--cache-max-size</c>); null: the host's setting.</summary>
    public long? CacheMaxSize { get; init; }

    /// <summary>How much the host logs (<c>--log-level</c>, a Serilog level); null: the host's setting.</summary>
    public string? LogLevel { get; init; }

    /// <summary>The run's log file the host also writes to (<c>run</c>); null: none.</summary>
    public string? LogFile { get; init; }

    /// <summary>The configuration entries this request sets for the host's logging, read before the options are bound.</summary>
    internal IEnumerable<KeyValuePair<string, string?>> LoggingSettings()
    {
        if (LogLevel is not null)
            yield return new("Serilog:MinimumLevel:Default", LogLevel);
        if (LogFile is not null)
            yield return new(LogFileSink.Setting, LogFile);
    }

    /// <summary>
    /// Lays the request's mount settings over <paramref name="options"/>, bound from the host's settings: what it asks
    /// replaces theirs. How the game is served is not a setting here: <see cref="Over"/> chooses it.
    /// </summary>
    internal void ApplyTo(MountOptions options)
    {
        options.Game = Path.GetFullPath(Game.Game);
        if (MountPoint is null)
            options.InPlace = true;
        else
            options.MountPoint = Path.GetFullPath(MountPoint);
        options.Mods = Game.Mods.Select(Path.GetFullPath).ToList(); // all of them: a list bound from settings would keep its longer tail
        if (CacheMaxSize is { } maxBytes)
            options.CacheMaxSize = maxBytes;
    }

    /// <summary>
    /// The game the mount serves: this request's folders, and its serving options over the host's (<see cref="MountOptions.Serving"/>,
    /// <see cref="ServingOptions.Choose"/>); letter case, asked nowhere, is the command's default.
    /// </summary>
    internal GameRequest Over(MountOptions settings)
    {
        var chosen = ServingOptions.Choose(Game.Serving, settings.Serving(), storingFromUnder: true);
        return Game with
        {
            Game = Path.GetFullPath(Game.Game),
            Mods = [.. Game.Mods.Select(Path.GetFullPath)],
            Serving = chosen with { IgnoreCase = chosen.IgnoreCase ?? IgnoreCaseByDefault, Cache = chosen.Cache is { } cache ? Path.GetFullPath(cache) : null },
            LanguageBy = Game.Serving.Language is null ? MountOptions.LanguageSetting : Game.LanguageBy,
        };
    }
}
