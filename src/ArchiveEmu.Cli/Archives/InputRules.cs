using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;

namespace ArchiveEmu.Cli.Archives;

/// <summary>
/// Which rule of its mod placed each changed entry of an archive ("mirror", "Redirector", "FEmulator/AFS/Sound.afs", …;
/// docs/DESIGN.md, "Reloaded-II and FEF mods"), for <c>ls</c> and <c>build</c>. An entry no mod changed has none.
/// </summary>
internal sealed class InputRules
{
    private readonly Dictionary<int, string> _byIndex = new();
    private readonly Dictionary<string, string> _byName;
    // A format whose emulated entries are not named as the mod's files (SPD: tex_1.dds becomes a new texture tex_3.dds) hands on the input.
    private readonly Dictionary<EntryInput, string> _byInput = new(ReferenceEqualityComparer.Instance);

    public InputRules(ArchiveRoute? route)
    {
        _byName = new Dictionary<string, string>(route?.Format.NameComparer ?? StringComparer.Ordinal);
        foreach (var change in route?.Patch.Changes ?? [])
        {
            if (change.Rule is not { } rule)
                continue;
            if (change.Input is { } input)
                _byInput.TryAdd(input, rule);
            if (change.Key.IsIndex)
                _byIndex[change.Key.Index] = rule;
            else
                _byName[change.Key.Name!] = rule;
        }
    }

    /// <summary>The rule that placed <paramref name="entry"/>, or null for an original entry or one added in code.</summary>
    public string? Of(EmulatedEntry entry) =>
        entry.State == EntryState.Original ? null
        : _byIndex.TryGetValue(entry.Index, out var byIndex) ? byIndex
        : entry.Name is { } name && _byName.TryGetValue(name, out var byName) ? byName
        : entry.Input is { } input && _byInput.TryGetValue(input, out var byInput) ? byInput : null;

    /// <summary>
    /// "FEmulator/AFS/Sound.afs 2 entries, mirror 1 entry": how many changes each rule placed, most first; then, for an archive
    /// inside an entry that mods change inside, "FEmulator/PAK/field/f.arc 1 entry in FIELD/F.ARC" at every depth.
    /// </summary>
    public static string Summary(ArchiveRoute route) => string.Join(", ", Counts(route.Patch.Changes, "")
        .Concat(route.Nested.SelectMany(n => Nested(n, n.Entry.ToString()))));

    private static IEnumerable<string> Nested(NestedRoute nested, string path) =>
        Counts(nested.Route.Patch.Changes, $" in {path}").Concat(nested.Route.Nested.SelectMany(n => Nested(n, $"{path}/{n.Entry}")));

    private static IEnumerable<string> Counts(IEnumerable<EntryChange> changes, string where) => changes
        .GroupBy(c => c.Rule ?? "code").OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
        .Select(g => $"{g.Key} {g.Count()} {(g.Count() == 1 ? "entry" : "entries")}{where}");
}
