using System.CommandLine;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Host.Requests;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// The options that say how a game is served (<see cref="ServingOptions"/>), each defined and read here: the cache folder and the
/// language on every game command, the others where a command takes them (it gives the option: build's <c>--merge</c> reads a
/// bare flag as auto, the mount's leaves it to the host).
/// </summary>
internal sealed class ServingArguments
{
    public Option<string> Cache { get; } = new("--cache") { Description = "The merged file cache folder (default: ~/.cache/archiveemu)", HelpName = "DIR" };

    public Option<string> Language { get; } = LanguageOption();

    public Option<bool>? NoCache { get; init; }

    public Option<bool>? VerifyContent { get; init; }

    public Option<string>? Merge { get; init; }

    public Option<string>? Compress { get; init; }

    /// <summary><c>--ignore-case</c> and <c>--case-sensitive</c>, which exclude each other.</summary>
    public (Option<bool> Ignore, Option<bool> Sensitive)? LetterCase { get; init; }

    /// <summary>
    /// The options of a game command: the cache (and <c>--no-cache</c>), the language, <c>--verify-content</c> where the cache keys
    /// are computed in this process, and the merge, compress and letter-case options the command gives (they differ by command).
    /// </summary>
    public static ServingArguments ForGame(bool verifyContent, Option<string>? merge = null, Option<string>? compress = null,
        (Option<bool>, Option<bool>)? letterCase = null) => new()
    {
        NoCache = new("--no-cache") { Description = "Neither read nor store layouts or merged archives" },
        VerifyContent = verifyContent ? new("--verify-content") { Description = "Key the cache on a hash of every input, not only sizes and times" } : null,
        Merge = merge,
        Compress = compress,
        LetterCase = letterCase,
    };

    /// <summary>What the command line asks, each option read once; null where it says nothing.</summary>
    public ServingOptions Read(ParseResult parse) => new()
    {
        Merge = Merge is null ? null : parse.GetValue(Merge),
        Compress = Compress is null ? null : parse.GetValue(Compress),
        IgnoreCase = LetterCase is not var (ignore, sensitive) ? null : parse.GetValue(ignore) ? true : parse.GetValue(sensitive) ? false : null,
        Language = parse.GetValue(Language),
        Cache = parse.GetValue(Cache),
        NoCache = NoCache is not null && parse.GetValue(NoCache),
        VerifyContent = VerifyContent is not null && parse.GetValue(VerifyContent),
    };

    /// <summary>Adds the options every game command has (cache, no cache, verify content, language) and the rule that <c>--cache</c> and <c>--no-cache</c> exclude each other.</summary>
    public void AddTo(Command command)
    {
        foreach (var option in new Option?[] { Cache, NoCache, VerifyContent, Language })
            if (option is not null)
                command.Options.Add(option);
        if (NoCache is { } noCache)
            command.Validate(result => result.Given(Cache) && result.GetValue(noCache) ? "--cache and --no-cache contradict each other" : null);
    }

    /// <summary>Adds the options the command gives (merge, compress, letter case), and the rule that <c>--ignore-case</c> and <c>--case-sensitive</c> exclude each other.</summary>
    public void AddCommandsOwnTo(Command command)
    {
        foreach (var option in new Option?[] { Merge, Compress, LetterCase?.Ignore, LetterCase?.Sensitive })
            if (option is not null)
                command.Options.Add(option);
        if (LetterCase is var (ignore, sensitive))
            command.Validate(result => result.GetValue(ignore) && result.GetValue(sensitive) ? "--ignore-case and --case-sensitive contradict each other" : null);
    }

    public static Option<string> MergeOption() => CliOptions.Word("--merge", "Which archives to pack into the merged file cache (the host's default when absent)",
        PolicyWords.MergePolicies);

    public static Option<string> CompressOption() => CliOptions.Word("--compress",
        "How archives the mount merges are stored: auto (the default) measures the cache device against LZ4 and stores LZ4 only where it reads faster",
        PolicyWords.Compressions);

    /// <summary><c>--ignore-case</c> (saying when it is the default: <paramref name="byDefault"/>) and <c>--case-sensitive</c>.</summary>
    public static (Option<bool>, Option<bool>) LetterCaseOptions(string byDefault) => (
        new("--ignore-case") { Description = "Find a path whatever the letter case asked, as Windows does (for games under Wine/Proton)" + byDefault },
        new("--case-sensitive") { Description = "Serve only the exact letter case of each name, as Linux does (the default for mount, unless a profile says otherwise)" });

    /// <summary><c>--language LANG</c>: a Localisation Framework id in any case, parsed to its spelling (<c>zh-hans</c> → <c>zh-Hans</c>).</summary>
    private static Option<string> LanguageOption()
    {
        var option = CliOptions.Word("--language", "The game's language, whose FEmulator/L10N/LANG folders apply, any case "
            + "(default: the language Steam records for the game, else en)", [.. LanguageIds.Known], ignoreCase: true);
        option.HelpName = "LANG";
        return option;
    }
}
