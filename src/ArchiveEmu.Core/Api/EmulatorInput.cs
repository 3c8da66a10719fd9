using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core;

/// <summary>
/// One input registered through <see cref="ArchiveEmulator"/>: what goes into entry <see cref="Entry"/> of archive
/// <see cref="Route"/>. Keep it to remove the input later.
/// </summary>
/// <param name="Id">Unique within its emulator, in registration order.</param>
/// <param name="Route">The archive, relative to the game folder ('/' separators).</param>
/// <param name="Entry">The entry: an index (AFS, AWB) or a name (PAK, ZIP, tar, IMG).</param>
/// <param name="Input">The bytes: a loose file, a slice of a file, or bytes in memory; null deletes the entry.</param>
/// <param name="Origin">Who asked for it (a mod's name): reported by <see cref="ArchiveEmulator.Describe"/>.</param>
public sealed record EmulatorInput(long Id, string Route, EntryKey Entry, EntryInput? Input, string Origin)
{
    public override string ToString() => $"{Origin}: {Route} entry {Entry} ← {(Input is null ? "delete" : Input.ToString())}";
}

/// <summary>Why <see cref="ArchiveEmulator.RouteChanged"/> was raised.</summary>
public enum RouteChangeReason { InputAdded, InputRemoved, ModFoldersChanged, Invalidated, Merged }

/// <summary>A route's output changed: the next <see cref="ArchiveEmulator.Open"/> gives the new bytes; files already open keep theirs.</summary>
public sealed class RouteChangedEventArgs(string route, RouteChangeReason reason) : EventArgs
{
    /// <summary>The archive, relative to the game folder.</summary>
    public string Route { get; } = route;

    public RouteChangeReason Reason { get; } = reason;
}

/// <summary>An entry of an emulated archive and what produced it.</summary>
/// <param name="Index">Position in the emulated archive.</param>
/// <param name="Name">The entry's name, where the format has names.</param>
/// <param name="Size">Size in bytes.</param>
/// <param name="State">Original, replaced, added or deleted.</param>
/// <param name="Origin">"original", a mod folder's name, or the origin given with an API input.</param>
/// <param name="Input">The injected bytes (file, slice or memory) for replaced and added entries; null otherwise.</param>
public sealed record EntryOrigin(int Index, string? Name, long Size, EntryState State, string Origin, EntryInput? Input);
