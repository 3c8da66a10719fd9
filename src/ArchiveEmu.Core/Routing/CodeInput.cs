using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// An input a mod loader added in code for one entry of the archive at <paramref name="Route"/>: the highest-priority layer,
/// above every mod folder (<see cref="ModRouter.CodeInputs"/>), so it wins the entry and a mod that touched it is a conflict.
/// </summary>
/// <param name="Route">The archive, relative to the game folder ('/' separators): a game file or a declared slice.</param>
/// <param name="Input">The bytes; null deletes the entry.</param>
/// <param name="Origin">Who asked for it (a mod's name), as listings and conflicts name it.</param>
internal sealed record CodeInput(string Route, EntryKey Entry, EntryInput? Input, string Origin);
