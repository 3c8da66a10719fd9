using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Policy;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.Serving.Languages;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core;

/// <summary>
/// The one type a mod loader starts from: a game folder, mod folders in priority order and inputs added in code
/// (a loose file, a slice of a file, or bytes, for an index or a name in an archive), served as emulated archives.
/// Every method may be called from any thread. A <see cref="VirtualFile"/> or stream handed out never changes
/// under its reader: a change (an input added or removed, a route invalidated) applies to the next
/// <see cref="Open"/>, and <see cref="RouteChanged"/> says which route changed.
/// </summary>
/// <remarks>
/// Priority, lowest first: the original, the mod folders in the order added, then inputs added in code (which
/// win over mod folders; a conflict is reported by <see cref="Describe"/> through the winning origin). Two inputs
/// added in code for one entry of one route are refused: remove the first to replace it. The emulator keeps the inputs
/// and answers for their changes; what they make is the game's (<see cref="EmulatedGame"/>), resolved and served as the
/// CLI and the mount serve it.
/// </remarks>
public sealed partial class ArchiveEmulator : IDisposable
{
    private readonly object _lock = new();
    private readonly List<string> _mods = new();
    private readonly List<EmulatorInput> _inputs = new();
    private readonly Dictionary<string, (ArchiveSource Source, IArchiveFormat Format)> _slices = new(StringComparer.Ordinal);
    private readonly Dictionary<string, EmulatedArchive> _built = new(StringComparer.Ordinal);
    private readonly GameSetup _serving; // the game folder and how to serve it; mods, slices and inputs are added per game
    private CompressionDecision? _compression; // the game's, decided at the first Merge, then kept by every game after
    private readonly DetectedFormats _formats = new(); // game files' formats, kept until Invalidate
    private EmulatedGame? _game; // the game as mods and inputs make it; null after any change, opened again when asked
    private ModLayer? _modLayer; // the mod folders walked; null when a folder or a slice was added or removed, or a route invalidated
    private long _nextId;
    private bool _disposed;

    /// <summary>Serves <paramref name="gameFolder"/>; a missing folder is a <see cref="DirectoryNotFoundException"/> naming it, an unknown <see cref="ArchiveEmulatorOptions.Language"/> an <see cref="ArgumentException"/>.</summary>
    public ArchiveEmulator(string gameFolder, ArchiveEmulatorOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(gameFolder);
        GameFolder = MissingFolder.Require(gameFolder, "game");
        options ??= new ArchiveEmulatorOptions();
        _serving = new GameSetup(GameFolder, [])
        {
            Cache = options.OpenCache(), VerifyContent = options.VerifyContent, Pool = options.Pool,
            Compression = options.Compression, CodecProbes = options.CodecProbes,
            Language = GameLanguage.Requested(options.Language, $"{nameof(ArchiveEmulatorOptions)}.{nameof(ArchiveEmulatorOptions.Language)}")
                ?? GameLanguage.Default($"{nameof(ArchiveEmulatorOptions)}.{nameof(ArchiveEmulatorOptions.Language)} not set"),
        };
    }

    /// <summary>Full path of the game folder.</summary>
    public string GameFolder { get; }

    /// <summary>The language whose FEmulator/L10N folders apply, and where it came from (<see cref="ArchiveEmulatorOptions.Language"/>, or the default).</summary>
    internal LanguageChoice Language => _serving.Language;

    /// <summary>The merged file cache, when <see cref="ArchiveEmulatorOptions.CacheFolder"/> was given.</summary>
    internal MergedFileCache? Cache => _serving.Cache;

    /// <summary>
    /// Raised after a route's output changed (on the thread that changed it, outside the emulator's lock, so a
    /// handler may call back into the emulator). Files already open keep their bytes.
    /// </summary>
    public event EventHandler<RouteChangedEventArgs>? RouteChanged;

    /// <summary>Mod folders, lowest priority first.</summary>
    public IReadOnlyList<string> ModFolders { get { lock (_lock) return _mods.ToArray(); } }

    /// <summary>Adds a mod folder above the ones already added (it wins the entries they share).</summary>
    public void AddModFolder(string folder)
    {
        ArgumentNullException.ThrowIfNull(folder);
        var full = MissingFolder.Require(folder, "mod");
        ChangeModFolders(() =>
        {
            if (_mods.Contains(full, StringComparer.Ordinal))
                throw new InvalidOperationException($"{full}: mod folder already added");
            _mods.Add(full);
        });
    }

    /// <summary>Removes a mod folder; false if it was not added.</summary>
    public bool RemoveModFolder(string folder)
    {
        ArgumentNullException.ThrowIfNull(folder);
        bool removed = false;
        ChangeModFolders(() => removed = _mods.Remove(Path.GetFullPath(folder)));
        return removed;
    }

    /// <summary>
    /// Declares an archive stored inside another file — an AWB in a CPK, a PAK inside a PAK entry — at
    /// <paramref name="route"/> (for example "data/bgm.cpk/voice.awb"): bytes [<paramref name="offset"/>, +<paramref name="length"/>)
    /// of <paramref name="containerPath"/>, read in place. Inputs and mod folders then target it like any archive.
    /// </summary>
    public void AddArchiveSlice(string route, string containerPath, long offset, long length)
    {
        var name = RouteName(route);
        var source = ArchiveSource.Slice(containerPath, offset, length);
        var format = ArchiveFormats.Detect(source) ?? throw new ArchiveFormatException(source.Name, 0,
            $"not an archive format ArchiveEmu knows ({Formats.ArchiveFormats.KnownNames})");
        Change(name, RouteChangeReason.InputAdded, () =>
        {
            if (!_slices.TryAdd(name, (source, format)))
                throw new InvalidOperationException($"{name}: an archive slice is already declared at this route");
            _modLayer = null; // a mod folder may target the slice
        });
    }

    /// <summary>Every archive route something targets (mod folders, inputs, declared slices), sorted.</summary>
    public IReadOnlyList<string> Routes
    {
        get
        {
            lock (_lock)
            {
                ThrowIfDisposed();
                return Game().Plan.Archives.Select(a => a.RelativePath).Concat(_slices.Keys)
                    .Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToArray();
            }
        }
    }

    /// <summary>
    /// Forgets what was built for <paramref name="route"/> and looks again: mod folders are re-read and every file
    /// input re-stat'ed (call it after changing a file an input points at). Raises <see cref="RouteChanged"/>.
    /// </summary>
    public void Invalidate(string route)
    {
        var name = RouteName(route);
        Change(name, RouteChangeReason.Invalidated, () =>
        {
            _modLayer = null;
            _formats.Forget();
            for (int i = 0; i < _inputs.Count; i++)
            {
                if (_inputs[i].Route == name && _inputs[i].Input is { Path: not null } input)
                    _inputs[i] = _inputs[i] with { Input = Refreshed(input) };
            }
        });
    }

    public void Dispose()
    {
        lock (_lock)
        {
            if (_disposed)
                return;
            _disposed = true;
            ForgetAll();
        }
    }

    private static EntryInput Refreshed(EntryInput input) =>
        input.Offset == 0 && input.Identity is { } identity && input.Length == identity.Length
            ? EntryInput.FromFile(input.Path!)
            : EntryInput.FromFileSlice(input.Path!, input.Offset, input.Length);

    private void ChangeModFolders(Action change)
    {
        string[] before, after;
        lock (_lock)
        {
            ThrowIfDisposed();
            before = RoutesOfMods();
            change();
            (_game, _modLayer) = (null, null);
            ForgetAll();
            after = RoutesOfMods();
        }
        foreach (var route in before.Union(after, StringComparer.Ordinal))
            RouteChanged?.Invoke(this, new RouteChangedEventArgs(route, RouteChangeReason.ModFoldersChanged));
    }

    // Applies a change under the lock and drops what was built from the game before it, then tells the listeners. A merge
    // changes no route: only the route's own kept build goes (the next open reads the merged copy).
    private void Change(string route, RouteChangeReason reason, Action change)
    {
        lock (_lock)
        {
            ThrowIfDisposed();
            change();
            if (reason == RouteChangeReason.Merged)
                Forget(route);
            else
            {
                _game = null;
                ForgetAll(); // a route that follows the changed one changed too
            }
        }
        RouteChanged?.Invoke(this, new RouteChangedEventArgs(route, reason));
    }

    // Handed-out files hold their own references to their sources, so disposing the kept build never reaches them.
    private void Forget(string route)
    {
        if (_built.Remove(route, out var archive))
            archive.Dispose();
    }

    private void ForgetAll()
    {
        foreach (var archive in _built.Values)
            archive.Dispose();
        _built.Clear();
    }

    private EmulatedGame Game() => _game ??= EmulatedGame.Open(Walked(Setup()));

    // The mod folders are walked only when they (or the slices) changed or a route was invalidated: a code input changes no walk.
    private GameSetup Walked(GameSetup setup) => setup with { WalkedMods = _modLayer ??= setup.WalkMods() };

    // The game as the mod folders, declared slices and inputs added in code describe it now.
    private GameSetup Setup() => _serving with
    {
        ModFolders = _mods.ToArray(),
        ArchiveSlices = new Dictionary<string, (ArchiveSource, IArchiveFormat)>(_slices, StringComparer.Ordinal),
        CodeInputs = _inputs.Select(i => new CodeInput(i.Route, i.Entry, i.Input, i.Origin)).ToArray(),
        Detect = _formats.Detect,
    };

    // The routes the mod folders touch, followers included: the walked mods resolved without the inputs added in code (no walk
    // of its own). Adding or removing a mod folder changes these.
    private string[] RoutesOfMods() =>
        Walked(Setup() with { CodeInputs = [] }).ResolveRoutes().Archives.Select(a => a.RelativePath).ToArray();

    private static string RouteName(string route)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(route);
        return GamePaths.TryParse(route, out var name) ? name
            : throw new ArgumentException($"{route}: a route is a path inside the game folder (no absolute paths, no '..')", nameof(route));
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);
}
