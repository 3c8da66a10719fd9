using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The modded game folder as a reader sees it: a targeted archive is its emulated version, a file a
/// mod overrides is the mod's file, anything else is the original. Every path stays inside the game folder.
/// </summary>
public sealed class EmulatedGame
{
    private readonly FileHandlePool? _pool;

    public EmulatedGame(RoutePlan plan, FileHandlePool? pool = null)
    {
        Plan = plan;
        _pool = pool;
    }

    /// <summary>Resolves the mods in <paramref name="modFolders"/> (lowest priority first) against <paramref name="gameFolder"/>.</summary>
    public static EmulatedGame Resolve(string gameFolder, IReadOnlyList<string> modFolders, FileHandlePool? pool = null) =>
        new(new ModRouter(gameFolder, modFolders).Resolve(), pool);

    public RoutePlan Plan { get; }

    /// <summary>Builds the emulated archive at <paramref name="relativePath"/>; with no mod touching it, the original as-is. The caller disposes it.</summary>
    public EmulatedArchive OpenArchive(string relativePath)
    {
        var full = GamePaths.Resolve(Plan.GameFolder, relativePath);
        if (Plan.FindArchive(relativePath) is { } route)
            return route.Format.Build(route.Format.ReadIndex(route.GamePath), route.Patch, _pool);
        if (!File.Exists(full))
            throw new FileNotFoundException($"{full}: not found in the game folder", full);
        var index = ArchiveFormats.ReadIndex(full);
        return index.Format.Build(index, ArchivePatch.Empty, _pool);
    }

    /// <summary>The bytes a reader of the modded game folder sees at <paramref name="relativePath"/>. The caller disposes it.</summary>
    public VirtualFile OpenFile(string relativePath)
    {
        var full = GamePaths.Resolve(Plan.GameFolder, relativePath);
        if (Plan.FindArchive(relativePath) is not null)
            return OpenArchive(relativePath).File;
        var source = Plan.FindOverride(relativePath)?.SourcePath ?? full;
        if (!File.Exists(source))
            throw new FileNotFoundException($"{full}: not found in the game folder or any mod", full);
        return new VirtualFileBuilder(_pool).AppendFile(source, 0, FileIdentity.Of(source).Length).Build();
    }
}
