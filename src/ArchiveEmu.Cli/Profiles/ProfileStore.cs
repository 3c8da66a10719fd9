using System.CommandLine;
using System.Text;
using System.Text.Json;
using ArchiveEmu.Cli.Output;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Cli.Profiles;

/// <summary>
/// The profiles: one JSON file per profile, <c>NAME.json</c> in <see cref="Folder"/>. Reading refuses a damaged file in one
/// line naming it and what is wrong (an <see cref="InvalidDataException"/>); writing is atomic.
/// </summary>
internal static class ProfileStore
{
    /// <summary><c>$XDG_CONFIG_HOME/archiveemu/profiles</c>, else <c>~/.config/archiveemu/profiles</c>.</summary>
    public static string Folder => Path.Combine(UserFolders.Config, "profiles");

    public static string PathOf(string name) => Path.Combine(Folder, name + ".json");

    /// <summary>Why <paramref name="name"/> cannot name a profile (it becomes a file name), or null.</summary>
    public static string? NameProblem(string name) =>
        !(name.Length > 0 && name.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-') && name.Trim('.').Length > 0)
            ? $"a profile name is made of letters a-z or A-Z, digits, '.', '_' and '-' (not only dots), not '{name}'"
            : name.Length > MaxNameLength ? $"a profile name is at most {MaxNameLength} characters, not {name.Length}" : null;

    /// <summary>
    /// The longest profile name: the file's name (NAME.json, and the temporary NAME.json.PID.tmp while it is written) must
    /// fit a file system's 255 bytes; a 245-character name passed the name check and then failed on the temporary file.
    /// </summary>
    public const int MaxNameLength = 200;

    /// <summary><c>--profile NAME</c> (or the NAME argument): a malformed name is a usage error.</summary>
    public static void CheckName(System.CommandLine.Parsing.SymbolResult result, string? name)
    {
        if (name is not null && NameProblem(name) is { } problem)
            result.AddError(problem);
    }

    /// <summary>The NAME argument of <c>profile save|show|rm</c>.</summary>
    public static Argument<string> NameArgument()
    {
        var name = new Argument<string>("NAME") { Description = "The profile's name: letters, digits, '.', '_' and '-'" };
        name.Validators.Add(r => CheckName(r, r.Tokens.Count > 0 ? r.Tokens[0].Value : null));
        return name;
    }

    public static Option<string> Option() => new("--profile")
    {
        Description = "Take the game, mods and options saved by 'archiveemu profile save NAME'; options given here override them, --mod adds to them",
        HelpName = "NAME",
        Validators = { r => CheckName(r, r.Tokens.Count > 0 ? r.Tokens[0].Value : null) },
    };

    public static void Save(string name, Profile profile)
    {
        Directory.CreateDirectory(Folder);
        AtomicFile.Write(PathOf(name), Encoding.UTF8.GetBytes(JsonSerializer.Serialize(profile, ProfileJson.Default.Profile) + "\n"));
    }

    /// <summary>The profile NAME; an <see cref="IOException"/> when there is none, <see cref="InvalidDataException"/> when its file is damaged.</summary>
    public static Profile Load(string name)
    {
        var path = PathOf(name);
        if (!File.Exists(path))
            throw new FileNotFoundException($"{path}: no profile named {name} (archiveemu profile ls lists them; profile save {name} … makes it)");
        return Read(path);
    }

    /// <summary>The profile in <paramref name="path"/>, its values checked as the command line's are.</summary>
    public static Profile Read(string path)
    {
        Profile? profile;
        try
        {
            profile = JsonSerializer.Deserialize(File.ReadAllBytes(path), ProfileJson.Default.Profile);
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{path}: not a profile ArchiveEmu can read: {JsonProblem.Describe(e)}");
        }
        if (profile is null)
            throw new InvalidDataException($"{path}: not a profile ArchiveEmu can read: it holds null, not an object");
        if (ValueProblem(profile) is { } problem)
            throw new InvalidDataException($"{path}: {problem}");
        return profile;
    }

    /// <summary>The first value the command line would refuse, in the words of the file's fields; null when all are fine.</summary>
    private static string? ValueProblem(Profile p)
    {
        if (Array.IndexOf(p.Mods, null) is var hole and >= 0)
            return $"mods[{hole}] is null; a profile lists its mod folders as absolute paths";
        foreach (var (field, path) in p.Mods.Select(m => ("mods", (string?)m)).Prepend(("game", p.Game)).Append(("reloadedDir", p.ReloadedDir))
                     .Append(("options.cache", p.Options.Cache)))
            if (path is not null && !Path.IsPathRooted(path))
                return $"{field} is '{path}'; a profile holds absolute paths";
            else if (path is not null && path.Contains('\0')) // no command line holds one; --profile threw ArgumentException on it (issue 48)
                return $"{field} holds a NUL character (\\u0000); a profile holds paths as the command line gives them";
        foreach (var (field, value) in new[] { ("merge", (object?)p.Options.Merge), ("compress", p.Options.Compress), ("ignoreCase", p.Options.IgnoreCase) })
            if (value is null)
                return $"options.{field} is null; a profile saves every option (profile save writes the defaults)";
        if (!PolicyWords.MergePolicies.Contains(p.Options.Merge!))
            return CliOptions.Takes("options.merge", PolicyWords.MergePolicies, p.Options.Merge!);
        if (!PolicyWords.Compressions.Contains(p.Options.Compress!))
            return CliOptions.Takes("options.compress", PolicyWords.Compressions, p.Options.Compress!);
        if (p.Options.Language is { } language && LanguageIds.Canonical(language) is null)
            return CliOptions.Takes("options.language", LanguageIds.Known, language);
        if (p.Mods.Length == 0 && !p.Reloaded && p.ReloadedDir is null)
            return "no mods: mods is empty, reloaded false and reloadedDir null";
        return null;
    }

    /// <summary>Every profile file's name, sorted.</summary>
    public static IEnumerable<string> Names() => Directory.Exists(Folder)
        ? Directory.EnumerateFiles(Folder, "*.json").Select(f => Path.GetFileNameWithoutExtension(f)).Order(StringComparer.Ordinal)
        : [];

    /// <summary>Deletes the profile NAME; false when there is none.</summary>
    public static bool Remove(string name)
    {
        var path = PathOf(name);
        if (!File.Exists(path))
            return false;
        File.Delete(path);
        return true;
    }
}
