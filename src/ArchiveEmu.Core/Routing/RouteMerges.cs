using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Merges;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The registered entry merges (<see cref="EntryMerges"/>) as one resolve asks them: the mods loaded are fixed (those it serves,
/// then the others loaded with them: <see cref="ModRouter.OtherLoadedMods"/>), so each game folder's merges for a format are
/// made once. The mods' ids are read only when a merge is asked for.
/// </summary>
internal sealed class RouteMerges(IReadOnlyList<string> servedMods, IReadOnlyList<string> otherLoadedMods)
{
    private readonly Dictionary<(string GameFolder, IArchiveFormat Format), IReadOnlyList<IGameMerges>> _made = new();
    private readonly Dictionary<string, MergeContext> _contexts = new(StringComparer.Ordinal); // one listing of each game folder
    private IReadOnlyList<LoadedMod>? _mods;

    /// <summary>The merges of the game in <paramref name="gameFolder"/> that look into its archives of <paramref name="format"/>.</summary>
    public IReadOnlyList<IGameMerges> For(string gameFolder, IArchiveFormat format)
    {
        if (!EntryMerges.All.Any(m => m.MergesInside(format)))
            return [];
        if (!_made.TryGetValue((gameFolder, format), out var merges))
        {
            if (!_contexts.TryGetValue(gameFolder, out var context))
                _contexts[gameFolder] = context = new MergeContext(gameFolder, _mods ??= Loaded());
            _made[(gameFolder, format)] = merges = EntryMerges.For(context, format);
        }
        return merges;
    }

    /// <summary>
    /// The entry a file named <paramref name="fileName"/> under a CRI probing folder of a CPK game is merged into, wherever it lies
    /// (<see cref="IGameMerges.ClaimByName"/>), or null.
    /// </summary>
    public MergeClaim? ClaimByName(string gameFolder, string fileName) =>
        For(gameFolder, Cpk).Select(m => m.ClaimByName(fileName)).FirstOrDefault(c => c is not null);

    private static readonly IArchiveFormat Cpk = ArchiveFormats.ByName("cpk")!;

    private LoadedMod[] Loaded() =>
        [.. servedMods.Select(m => new LoadedMod(IdOf(m), m, Served: true)), .. otherLoadedMods.Select(m => new LoadedMod(IdOf(m), m, Served: false))];

    // A ModConfig.json that cannot be read gives no id here; the walk reports it.
    private static string? IdOf(string modFolder)
    {
        var config = GamePaths.EntriesInside(modFolder, modFolder)
            .FirstOrDefault(e => !e.IsFolder && Path.GetFileName(e.Path).Equals(ModConfig.FileName, StringComparison.OrdinalIgnoreCase)).Path;
        if (config is null)
            return null;
        try
        {
            var read = ModConfig.Read(config);
            return read.IsObject && read.Id.Length > 0 ? read.Id : null;
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
