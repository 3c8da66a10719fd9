using System.Collections.Concurrent;

namespace ArchiveEmu.Host.Mount;

// mount --ignore-case: Wine/Proton games ask for DATA\TEXTURES.AFS where the game has data/textures.afs, and when the exact
// name fails Wine lists the folder and compares every name itself, which is slow over thousands of files.
internal sealed partial class ModdedGameFileSystem
{
    private readonly bool _ignoreCase;

    // The other spellings each real path was asked by: libfuse gives each its own kernel inode, so each is invalidated too.
    private readonly ConcurrentDictionary<string, ConcurrentDictionary<string, byte>> _spellings = new(StringComparer.Ordinal);

    /// <summary>
    /// With ignore-case, <paramref name="path"/> as the mounted tree spells it, each component that is not there as asked
    /// replaced by the folder's name that matches it whatever the case (<see cref="CaseFoldedFolder"/>); null when the option
    /// is off, a component matches nothing, or every component was already spelled so. Called only once the exact path failed.
    /// </summary>
    private string? Respelled(string path)
    {
        if (!_ignoreCase || path.Length == 0)
            return null;
        var snapshot = Current;
        if (snapshot.Respellings.TryGetValue(path, out var known))
            return known;
        string real = "";
        bool changed = false;
        foreach (var part in path.Split('/'))
        {
            var folder = snapshot.FoldedFolders.GetOrAdd(real, f => CaseFoldedFolder.Of(ListAsSpelled(snapshot, f, out _) ?? []));
            if (folder.Find(part) is not { } name)
                return null;
            changed |= !string.Equals(name, part, StringComparison.Ordinal);
            real = real.Length == 0 ? name : $"{real}/{name}";
        }
        if (!changed)
            return null;
        snapshot.Respellings.TryAdd(path, real);
        _spellings.GetOrAdd(real, _ => new ConcurrentDictionary<string, byte>(StringComparer.Ordinal)).TryAdd(path, 0);
        return real;
    }

    /// <summary>
    /// The real path of a spelling this snapshot already answered, else <paramref name="path"/>: libfuse opens by the spelling
    /// its lookup just found, and an open that first fails as spelled costs a .NET exception (tens of µs).
    /// </summary>
    private string KnownSpelling(string path) => _ignoreCase && Current.Respellings.TryGetValue(path, out var real) ? real : path;

    /// <summary>Tells the mount to drop what it cached for <paramref name="path"/> and for every other spelling it was asked by.</summary>
    private void InvalidateEverySpelling(string path)
    {
        Invalidate?.Invoke(path);
        if (_spellings.TryGetValue(path, out var others))
            foreach (var other in others.Keys)
                Invalidate?.Invoke(other);
    }
}
