using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Core;

public sealed partial class ArchiveEmulator
{
    /// <summary>Puts the whole file at <paramref name="path"/> into <paramref name="entry"/> of <paramref name="route"/>.</summary>
    public EmulatorInput AddFile(string route, EntryKey entry, string path, string origin = "api") =>
        Add(route, entry, EntryInput.FromFile(path), origin);

    /// <summary>Puts bytes [<paramref name="offset"/>, +<paramref name="length"/>) of <paramref name="path"/> into the entry, read in place.</summary>
    public EmulatorInput AddFileSlice(string route, EntryKey entry, string path, long offset, long length, string origin = "api") =>
        Add(route, entry, EntryInput.FromFileSlice(path, offset, length), origin);

    /// <summary>Puts <paramref name="bytes"/> (kept by reference: do not change them afterwards) into the entry.</summary>
    public EmulatorInput AddBytes(string route, EntryKey entry, ReadOnlyMemory<byte> bytes, string origin = "api") =>
        Add(route, entry, EntryInput.FromBytes(bytes), origin);

    /// <summary>Deletes the entry, where the format allows it (an error on <see cref="Open"/> where it does not).</summary>
    public EmulatorInput AddDelete(string route, EntryKey entry, string origin = "api") => Add(route, entry, null, origin);

    /// <summary>Removes an input added earlier; false if it was already removed.</summary>
    public bool Remove(EmulatorInput input)
    {
        ArgumentNullException.ThrowIfNull(input);
        bool removed = false;
        Change(input.Route, RouteChangeReason.InputRemoved, () => removed = _inputs.RemoveAll(i => i.Id == input.Id) > 0);
        return removed;
    }

    /// <summary>The inputs added in code for <paramref name="route"/>, in the order they were added.</summary>
    public IReadOnlyList<EmulatorInput> Inputs(string route)
    {
        var name = RouteName(route);
        lock (_lock)
            return _inputs.Where(i => i.Route == name).ToArray();
    }

    /// <summary>
    /// How the entries of the archive at <paramref name="route"/> are addressed, so which <see cref="EntryKey"/> its inputs take:
    /// <see cref="EntryAddressing.ByIndex"/> (AFS, AWB, an ID-only CPK: <see cref="EntryKey.ByIndex"/>) or
    /// <see cref="EntryAddressing.ByName"/> (PAK, ZIP, tar, IMG, a CPK with names: <see cref="EntryKey.ByName"/>).
    /// </summary>
    public EntryAddressing AddressingOf(string route)
    {
        var name = RouteName(route);
        lock (_lock)
        {
            ThrowIfDisposed();
            return Addressing(ArchiveAt(name));
        }
    }

    private EmulatorInput Add(string route, EntryKey entry, EntryInput? input, string origin)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(origin);
        var name = RouteName(route);
        EmulatorInput added = null!;
        Change(name, RouteChangeReason.InputAdded, () =>
        {
            var archive = ArchiveAt(name);
            var (format, addressing) = (archive.Format, Addressing(archive));
            if ((addressing == EntryAddressing.ByIndex) != entry.IsIndex)
                throw new ArgumentException($"{name}: {(addressing != format.Addressing ? "this ID-only " : "")}{format.Name} entries are addressed by "
                    + $"{(entry.IsIndex ? "name" : addressing != format.Addressing ? "ID (EntryKey.ByIndex(id))" : "index")}, not by '{entry}'", nameof(entry));
            if (_inputs.FirstOrDefault(i => i.Route == name && SameEntry(format, i.Entry, entry)) is { } existing)
                throw new InvalidOperationException(
                    $"{name}: entry {entry} already has an input from {existing.Origin} (#{existing.Id}); remove it first to replace it with one from {origin}");
            added = new EmulatorInput(++_nextId, name, entry, input, origin);
            _inputs.Add(added);
        });
        return added;
    }

    private static bool SameEntry(IArchiveFormat format, EntryKey a, EntryKey b) =>
        a.IsIndex ? b.IsIndex && a.Index == b.Index : !b.IsIndex && format.NameComparer.Equals(a.Name, b.Name);

    // The archive at a route as the game finds it: a declared slice, else the game file (at Add, before the game is resolved
    // again, so a wrong kind of key is refused at once), else a file that follows an archive mods change (an IMG v1 .dir).
    private ArchiveRoute ArchiveAt(string route)
    {
        try
        {
            return GameArchives.At(GameFolder, route, _slices, _formats.Detect);
        }
        catch (ArchiveFormatException) when (Game().Plan.FindArchive(route) is { } follower)
        {
            return follower;
        }
    }

    // An ID-only CPK is addressed by ID although CPK is a name format: its header says so (IArchiveFormat.AddressingOf).
    private static EntryAddressing Addressing(ArchiveRoute archive) =>
        GameArchives.AddressingOf(archive.Format, archive.Slice ?? ArchiveSource.File(archive.GamePath));
}
