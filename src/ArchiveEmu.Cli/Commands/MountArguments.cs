using System.CommandLine;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// The options <c>mount</c> and <c>run</c> share, and their translation into the host's configuration keys: both run the
/// ArchiveEmu host in this process (one code path, one set of options).
/// </summary>
internal sealed class MountArguments
{
    private readonly GameArguments _game = new();
    private readonly Option<string> _merge = CliOptions.Word("--merge", "Which archives to pack into the merged file cache (the host's default when absent)",
        PolicyWords.MergePolicies);
    private readonly Option<string> _compress = CliOptions.Word("--compress",
        "How archives the mount merges are stored: auto (the default) measures the cache device against LZ4 and stores LZ4 only where it reads faster",
        PolicyWords.Compressions);
    private readonly Option<bool> _ignoreCase = new("--ignore-case")
    {
        Description = "Find a path whatever the letter case asked, as Windows does (for games under Wine/Proton)",
    };
    private readonly Option<long?> _cacheMaxSize = CacheCap.Option();
    private readonly Option<string> _logLevel = CliOptions.Word("--log-level", "How much the host logs (any case, as Serilog takes it)",
        [.. Host.MountHost.LogLevels], ignoreCase: true);

    /// <summary>The usage words these options take, for a command's one-line usage.</summary>
    public static readonly string Usage = $"--game DIR (--mod DIR [--mod DIR…] | --reloaded | --reloaded-dir PATH [--mod DIR…]) [--cache DIR | --no-cache] [--merge {string.Join('|', PolicyWords.MergePolicies)}] "
        + $"[--compress {string.Join('|', PolicyWords.Compressions)}] [--cache-max-size N] [--language LANG] [--ignore-case] [--log-level Verbose|Debug|Information|Warning|Error|Fatal]";

    public Command AddTo(Command command)
    {
        _game.AddTo(command, verifyContent: false);
        command.Options.Add(_merge);
        command.Options.Add(_compress);
        command.Options.Add(_cacheMaxSize);
        command.Options.Add(_ignoreCase);
        command.Options.Add(_logLevel);
        return command;
    }

    /// <summary>
    /// The host's arguments: served at <paramref name="mountPoint"/>, or over the game folder itself when it is null.
    /// Missing folders throw (one line on stderr, as every command's) before the host starts logging.
    /// </summary>
    public string[] HostArgs(ParseResult parse, CliConsole console, string? mountPoint)
    {
        var choice = _game.Choose(parse, warning => console.Error.WriteLine($"archiveemu: warning: {warning}"));
        foreach (var line in choice.Reloaded?.ReportLines() ?? []) // where the Reloaded-II setup was found and which mods it gives
            console.Error.WriteLine($"archiveemu: {line}");
        var (game, mods) = choice;
        foreach (var (folder, what) in mods.Select(m => (m, "mod")).Prepend((game, "game")))
            if (!Directory.Exists(folder) && !(what == "game" && mountPoint is null && IsDeadMount(folder)))
                throw new DirectoryNotFoundException($"{Path.GetFullPath(folder)}: {what} folder not found");
        var hostArgs = new List<string> { $"--ArchiveEmu:Game={Path.GetFullPath(game)}" };
        hostArgs.Add(mountPoint is null ? "--ArchiveEmu:InPlace=true" : $"--ArchiveEmu:MountPoint={Path.GetFullPath(mountPoint)}");
        for (int i = 0; i < mods.Length; i++)
            hostArgs.Add($"--ArchiveEmu:Mods:{i}={Path.GetFullPath(mods[i])}");
        if (parse.GetValue(_game.Cache) is { } cache)
            hostArgs.Add($"--ArchiveEmu:Cache={Path.GetFullPath(cache)}");
        if (parse.GetValue(_game.NoCache))
            hostArgs.Add("--ArchiveEmu:NoCache=true");
        if (parse.GetValue(_merge) is { } policy)
            hostArgs.Add($"--ArchiveEmu:Merge={policy}");
        if (parse.GetValue(_compress) is { } compression)
            hostArgs.Add($"--ArchiveEmu:Compression={compression}");
        if (parse.GetValue(_cacheMaxSize) is { } maxBytes)
            hostArgs.Add($"--ArchiveEmu:CacheMaxSize={maxBytes}");
        if (parse.GetValue(_game.Language) is { } language)
            hostArgs.Add($"--ArchiveEmu:Language={language}");
        if (parse.GetValue(_ignoreCase))
            hostArgs.Add("--ArchiveEmu:IgnoreCase=true");
        if (parse.GetValue(_logLevel) is { } level)
            hostArgs.Add($"--Serilog:MinimumLevel:Default={level}");
        return hostArgs.ToArray();
    }

    /// <summary>
    /// Whether something is at <paramref name="folder"/> that cannot be looked at: a dead mount a killed host left over the
    /// game folder ("Transport endpoint is not connected", once the kernel's cached attributes have expired). In place,
    /// the host clears it; it is not a missing folder.
    /// </summary>
    private static bool IsDeadMount(string folder)
    {
        try
        {
            File.GetAttributes(folder);
            return false; // there, and not a folder
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException or UnauthorizedAccessException)
        {
            return false;
        }
        catch (IOException)
        {
            return true;
        }
    }
}
