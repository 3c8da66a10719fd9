using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Serving.Languages;

namespace ArchiveEmu.Host;

/// <summary>What the host serves, bound from appsettings.json, ARCHIVEEMU_ environment variables and the command line.</summary>
public sealed class MountOptions
{
    public const string Section = "ArchiveEmu";

    /// <summary>The game folder to present, modded.</summary>
    public string? Game { get; set; }

    /// <summary>Mod folders in priority order: a later one wins an entry both touch.</summary>
    public List<string> Mods { get; set; } = new();

    /// <summary>Where the modded game folder appears.</summary>
    public string? MountPoint { get; set; }

    /// <summary>Serve over the game folder itself (no MountPoint): the originals are read through a handle taken before mounting.</summary>
    public bool InPlace { get; set; }

    /// <summary>
    /// Where the mount goes: the game folder itself in place (symlinks resolved, as mount(2) does and mountinfo lists it;
    /// Steam's "$PWD" may run through ~/.steam/steam), else the mount point. Taken once, before mounting: resolving the
    /// game path later would go through the mount.
    /// </summary>
    internal string ServedAt => _servedAt ??= InPlace ? Core.Interop.RealPaths.Of(Game!) : Path.GetFullPath(MountPoint!);

    private string? _servedAt;

    /// <summary>
    /// The served folder as the log names it, in "mounted" and "unmounted" alike: in place the game folder as given (the link a
    /// player typed, not <see cref="ServedAt"/> where it leads), else the mount point.
    /// </summary>
    internal string ShownAt => InPlace ? Path.TrimEndingDirectorySeparator(Path.GetFullPath(Game!)) : ServedAt;

    /// <summary>
    /// In place as root, every user may use the mount (allow_other; file modes still apply through default_permissions): the
    /// game folder is the user's, and <c>sudo archiveemu run</c> starts the game as the user who called sudo.
    /// </summary>
    internal bool AllowOthers => InPlace && Host.Interop.LibC.GetEuid() == 0;

    /// <summary>In place, the handle on the game folder taken before mounting (set by the host once the folder is checked).</summary>
    // A field, not a property: the host's own, never a setting, so the configuration binding generator does not try to bind it.
    internal Host.Fuse.GameFolderHandle? GameHandle;

    /// <summary>The run's log file the host also writes to (<see cref="LogFileSink"/>), named in the "mounted" line; null without one.</summary>
    // A field, as GameHandle: set by the host from the sink it opened, never bound.
    internal string? LogFile;

    /// <summary>The game folder as Core and the host open it: through the handle in place, else the folder itself.</summary>
    internal string GameSource => GameHandle?.Path ?? Game!;

    /// <summary>The merged file cache folder (a per-user default when empty).</summary>
    public string? Cache { get; set; }

    /// <summary>Bytes the cache's packs may take: past it, the cache's gc removes the least recently used entries the mount does not serve.</summary>
    public long CacheMaxSize { get; set; } = MergedFileCache.DefaultMaxBytes;

    /// <summary>Serve by emulation only, without the merged file cache.</summary>
    public bool NoCache { get; set; }

    /// <summary>auto, always or never (<see cref="PolicyWords"/>).</summary>
    public string Merge { get; set; } = MergePolicy.Auto.Word();

    /// <summary>How archives merged by the mount are stored: auto (measured: LZ4 only where the cache device reads slower than it pays), lz4 or none (raw), as <c>build --compress</c>.</summary>
    public string Compression { get; set; } = CompressionChoice.Auto.Word();

    /// <summary>Most libfuse worker threads serving requests at once.</summary>
    public uint Threads { get; set; } = 16;

    /// <summary>
    /// Kernel read-ahead for the mount in KiB (set when running as root; 0 keeps the kernel's 128 KiB), never more than the
    /// game disk's own: a plain file there is read ahead no further (issue 47: at a Steam Deck's 128 KiB, 4 MiB through the
    /// mount read 2x the plain file's bytes for a game's loader).
    /// </summary>
    public int ReadAheadKb { get; set; } = 4096;

    /// <summary>Whether the host raises the mount's read-ahead to <see cref="ReadAheadKb"/>: only root may write it.</summary>
    internal bool RaisesReadAhead => ReadAheadKb > 0 && Host.Interop.LibC.GetEuid() == 0;

    /// <summary>
    /// How to speak FUSE: "kernel" (the protocol on /dev/fuse directly: mounted by mount(2) as root, which allows
    /// passthrough, or by fusermount3 for a normal user), "libfuse" (libfuse3), or "auto" (kernel when it can mount, else libfuse).
    /// </summary>
    public string Fuse { get; set; } = "auto";

    /// <summary>Let the kernel read the game's unmodified files and merged archives directly (FUSE passthrough, Linux 6.9+, "kernel" only).</summary>
    public bool Passthrough { get; set; } = true;

    /// <summary>
    /// With passthrough: pass an emulated archive through as a copy-on-write clone of its original, a file with no name
    /// beside it that shares the original's blocks (btrfs, XFS). Elsewhere the host serves it, as with this off.
    /// </summary>
    public bool Clone { get; set; } = true;

    /// <summary>
    /// Bring an emulated archive's sources into the page cache ahead of a reader streaming through it, in large folios
    /// (<c>PageCacheStreaming</c>); false leaves every read of them to the kernel's own read-ahead, so a benchmark can show
    /// its figures with and without it.
    /// </summary>
    public bool BringIn { get; set; } = true;

    /// <summary>
    /// Find a path whatever the letter case asked (Windows' rule), for games under Wine/Proton that ask for names in another
    /// case; the exact name always comes first, and listings keep the game's spelling.
    /// </summary>
    public bool? IgnoreCase { get; set; }

    /// <summary>
    /// The game's language, a Localisation Framework id (en, ja, zh-Hans…): which FEmulator/L10N/&lt;id&gt;/ folders apply;
    /// empty: the language Steam records for the game, else en.
    /// </summary>
    public string? Language { get; set; }

    /// <summary>The setting <see cref="Language"/> is bound from, as the line saying which language is served names it.</summary>
    internal const string LanguageSetting = $"{Section}:{nameof(Language)}";

    /// <summary>
    /// How these settings ask the game to be served: the layer under a command's request (<see cref="Requests.MountRequest.Over"/>),
    /// and all of it when the host runs alone. Empty text is unset.
    /// </summary>
    internal Requests.ServingOptions Serving() => new()
    {
        Merge = Merge,
        Compress = Compression,
        IgnoreCase = IgnoreCase,
        Language = string.IsNullOrWhiteSpace(Language) ? null : Language,
        Cache = string.IsNullOrEmpty(Cache) ? null : Cache,
        NoCache = NoCache,
    };

    /// <summary>The game these settings name, served as they say: what the host serves when it runs alone.</summary>
    internal Requests.GameRequest Request() => new(Game ?? "", [.. Mods], Serving()) { LanguageBy = LanguageSetting };

    /// <summary>How long mod folders must stay quiet before a hot reload.</summary>
    public int ReloadDebounceMs { get; set; } = 300;

    /// <summary>Whether this mount speaks the kernel protocol itself (else libfuse).</summary>
    internal bool UsesKernelProtocol => Fuse == "kernel" || (Fuse == "auto" && Host.Fuse.Kernel.KernelMount.CanMount);

    /// <summary>The settings that take one of a few words, and those words.</summary>
    internal static readonly IReadOnlyDictionary<string, string[]> Words = new Dictionary<string, string[]>
    {
        [nameof(Merge)] = PolicyWords.MergePolicies,
        [nameof(Compression)] = PolicyWords.Compressions,
        [nameof(Fuse)] = ["auto", "kernel", "libfuse"],
    };

    /// <summary>The settings that take one of a few words in any letter case (empty: unset), and those words.</summary>
    internal static readonly IReadOnlyDictionary<string, IReadOnlyList<string>> WordsAnyCase = new Dictionary<string, IReadOnlyList<string>>
    {
        [nameof(Language)] = LanguageIds.Known,
    };


    /// <summary>Problems that stop the host from starting, one line each, with these settings served as they say.</summary>
    public IReadOnlyList<string> Validate() => Validate(Serving());

    /// <summary>Problems that stop the host from starting, one line each, serving as <paramref name="served"/> says.</summary>
    internal IReadOnlyList<string> Validate(Requests.ServingOptions served)
    {
        var problems = new List<string>();
        if (string.IsNullOrWhiteSpace(Game))
            problems.Add("no game folder: set ArchiveEmu:Game (or --ArchiveEmu:Game=DIR)");
        else if (!InPlace && !Directory.Exists(Game)) // in place, a dead mount may hide it: cleared first (MountPointState.PrepareInPlace)
            problems.Add($"{Path.GetFullPath(Game)}: game folder not found");
        foreach (var mod in Mods.Where(m => !Directory.Exists(m)))
            problems.Add($"{Path.GetFullPath(mod)}: mod folder not found");
        if (InPlace && !string.IsNullOrWhiteSpace(MountPoint))
            problems.Add("InPlace mounts over the game folder itself; drop MountPoint");
        else if (!InPlace && string.IsNullOrWhiteSpace(MountPoint))
            problems.Add("no mount point: set ArchiveEmu:MountPoint (or ArchiveEmu:InPlace=true to mount over the game folder)");
        foreach (var (name, value) in new[] { (nameof(Merge), Merge), (nameof(Compression), Compression), (nameof(Fuse), Fuse) })
            if (!Words[name].Contains(value, StringComparer.Ordinal))
                problems.Add(SettingValues.Takes(name, Words[name], value));
        if (!string.IsNullOrWhiteSpace(Language) && LanguageIds.Canonical(Language) is null)
            problems.Add(SettingValues.Takes(nameof(Language), LanguageIds.Known, Language));
        if (served.NoCache && served.Policy == MergePolicy.Always)
            problems.Add("merge policy 'always' needs the cache; drop NoCache");
        if (Fuse == "kernel" && !Host.Fuse.Kernel.KernelMount.CanMount)
            problems.Add("Fuse 'kernel' mounts with mount(2) as root, or through fusermount3 (Debian package fuse3), which is not on PATH; install it or use libfuse");
        if (CacheMaxSize < 1)
            problems.Add($"CacheMaxSize {CacheMaxSize} is not a size in bytes above 0");
        if (Threads is < 1 or > 256)
            problems.Add($"Threads {Threads} is not from 1 to 256");
        if (ReadAheadKb is < 0 or > 1 << 20)
            problems.Add($"ReadAheadKb {ReadAheadKb} is not from 0 to 1048576");
        return problems;
    }
}
