using System.Collections.Concurrent;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Serving;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// The modded game folder as resolved at one moment: the archives mods target (built lazily), the
/// whole-file overrides, and the folders and names overrides add. A hot reload makes a new snapshot and
/// swaps it in; archives whose inputs did not change carry their build over.
/// </summary>
internal sealed class MountSnapshot : IDisposable
{
    private MountSnapshot(EmulatedGame game, Dictionary<string, ArchiveSlot> archives,
        Dictionary<string, (FileOverride Override, FileIdentity Identity)> overrides,
        Dictionary<string, SortedSet<string>> addedNames, Dictionary<string, string> addedFolders)
    {
        Game = game;
        Archives = archives;
        Overrides = overrides;
        AddedNames = addedNames;
        AddedFolders = addedFolders;
    }

    public EmulatedGame Game { get; }
    public IReadOnlyDictionary<string, ArchiveSlot> Archives { get; }
    public IReadOnlyDictionary<string, (FileOverride Override, FileIdentity Identity)> Overrides { get; }

    /// <summary>Per folder ("" = root), the names overrides add to its listing.</summary>
    public IReadOnlyDictionary<string, SortedSet<string>> AddedNames { get; }

    /// <summary>Folders that exist only in mods, each with a mod folder to take its stat from.</summary>
    public IReadOnlyDictionary<string, string> AddedFolders { get; }

    /// <summary>
    /// Per folder, its served names found whatever the case (<c>--ignore-case</c>): each built from the folder's listing by
    /// the first lookup that needs it, and kept for this snapshot; a hot reload makes a new snapshot, so they are built anew.
    /// </summary>
    public ConcurrentDictionary<string, CaseFoldedFolder> FoldedFolders { get; } = new(StringComparer.Ordinal);

    /// <summary>Paths asked in another case and found (<c>--ignore-case</c>), each with its real path, for this snapshot.</summary>
    public ConcurrentDictionary<string, string> Respellings { get; } = new(StringComparer.Ordinal);

    public static MountSnapshot Create(EmulatedGame game, MountSnapshot? previous)
    {
        var archives = new Dictionary<string, ArchiveSlot>(StringComparer.Ordinal);
        foreach (var route in game.Plan.Archives)
        {
            var original = ArchiveSlot.IdentityOf(route.GamePath); // one stat, for the slot's change check and the mtime
            var slot = new ArchiveSlot(route, game.Server.VersionOf(route), NewestInput(route, original), original);
            if (previous?.Archives.GetValueOrDefault(route.RelativePath) is { } old && old.KeyHash == slot.KeyHash)
                slot.Adopt(old);
            archives[route.RelativePath] = slot;
        }

        var overrides = new Dictionary<string, (FileOverride, FileIdentity)>(StringComparer.Ordinal);
        var addedNames = new Dictionary<string, SortedSet<string>>(StringComparer.Ordinal);
        var addedFolders = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var o in game.Plan.Overrides)
        {
            overrides[o.RelativePath] = (o, FileIdentity.Of(o.SourcePath));
            AddToListings(game.Plan.GameFolder, o, addedNames, addedFolders);
        }
        return new MountSnapshot(game, archives, overrides, addedNames, addedFolders);
    }

    // Every folder on the way to an override lists its next step; folders the game lacks are added.
    private static void AddToListings(string gameFolder, FileOverride o, Dictionary<string, SortedSet<string>> names, Dictionary<string, string> folders)
    {
        var parts = o.RelativePath.Split('/');
        string parent = "";
        string modFolder = Path.GetDirectoryName(o.SourcePath)!;
        for (int i = 0; i < parts.Length; i++)
        {
            if (!names.TryGetValue(parent, out var set))
                names[parent] = set = new SortedSet<string>(StringComparer.Ordinal);
            set.Add(parts[i]);
            string path = parent.Length == 0 ? parts[i] : $"{parent}/{parts[i]}";
            if (i < parts.Length - 1 && !Directory.Exists(Path.Combine(gameFolder, path)))
                folders.TryAdd(path, modFolder);
            parent = path;
        }
    }

    private static DateTime NewestInput(ArchiveRoute route, FileIdentity? original = null)
    {
        var newest = (original ?? FileIdentity.Of(route.GamePath)).LastWriteUtc; // unreadable: FileIdentity.Of says why
        foreach (var change in route.Patch.Changes)
            if (change.Input?.Identity is { } identity && identity.LastWriteUtc > newest)
                newest = identity.LastWriteUtc;
        foreach (var nested in route.Nested) // archives inside archives: their inputs are this archive's too
        {
            var inner = NewestInput(nested.Route);
            if (inner > newest)
                newest = inner;
        }
        if (route.Follows is { } leader && NewestInput(leader) is var followed && followed > newest)
            newest = followed; // an ACB that follows its AWB changes when the AWB does, an IMG v1 .dir when its .img does
        return newest;
    }

    /// <summary>Paths whose bytes, size or existence differ between <paramref name="old"/> and this snapshot.</summary>
    public (List<string> Archives, List<string> Files) ChangesSince(MountSnapshot old)
    {
        var archives = Archives.Keys.Union(old.Archives.Keys)
            .Where(p => Archives.GetValueOrDefault(p)?.KeyHash != old.Archives.GetValueOrDefault(p)?.KeyHash)
            .Order(StringComparer.Ordinal).ToList();
        var files = Overrides.Keys.Union(old.Overrides.Keys)
            .Where(p => !Overrides.TryGetValue(p, out var now) || !old.Overrides.TryGetValue(p, out var was)
                || now.Override.SourcePath != was.Override.SourcePath || now.Identity != was.Identity)
            .Order(StringComparer.Ordinal).ToList();
        return (archives, files);
    }

    public void Dispose()
    {
        foreach (var slot in Archives.Values)
            slot.Release();
    }
}
