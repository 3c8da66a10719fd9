using ArchiveEmu.Core.Formats;

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

    private EmulatorInput Add(string route, EntryKey entry, EntryInput? input, string origin)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(origin);
        var name = RouteName(route);
        EmulatorInput added = null!;
        Change(name, RouteChangeReason.InputAdded, () =>
        {
            var format = FormatOf(name);
            var addressing = AddressingOf(name, format);
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

    // The format of the archive at a route: a declared slice, one the mod folders already detected, or the game file
    // (detected once, not at every open: detection reads the file's head; Invalidate forgets it).
    private IArchiveFormat FormatOf(string route)
    {
        if (_slices.TryGetValue(route, out var slice))
            return slice.Format;
        if (ModPlan().FindArchive(route) is { } fromMods)
            return fromMods.Format;
        if (!_detected.TryGetValue(route, out var format))
            _detected[route] = format = Detect(route);
        return format;
    }

    // An ID-only CPK is addressed by ID although CPK is a name format: its header says so (IArchiveFormat.AddressingOf).
    // A header that cannot be read keeps the format's addressing; opening the archive then reports the damage.
    private EntryAddressing AddressingOf(string route, IArchiveFormat format)
    {
        try
        {
            var source = _slices.TryGetValue(route, out var slice) ? slice.Source
                : ModPlan().FindArchive(route) is { } fromMods ? fromMods.Slice ?? ArchiveSource.File(fromMods.GamePath)
                : ArchiveSource.File(Routing.GamePaths.Resolve(GameFolder, route));
            return format.AddressingOf(source);
        }
        catch (Exception e) when (e is ArchiveFormatException or IOException)
        {
            return format.Addressing;
        }
    }

    private IArchiveFormat Detect(string route)
    {
        var path = Routing.GamePaths.Resolve(GameFolder, route);
        if (!Routing.GamePaths.FileExists(path))
            throw new FileNotFoundException($"{path}: no archive at route '{route}' in the game folder{Routing.GamePaths.DanglingLink(path)} (declare archives inside other files with AddArchiveSlice)", path);
        return ArchiveFormats.Detect(path) ?? throw new ArchiveFormatException(path, 0, ArchiveFormats.NotKnown(path));
    }
}
