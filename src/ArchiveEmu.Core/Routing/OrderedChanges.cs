namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Values by key in first-seen order, where a later mod's value replaces an earlier one's in place,
/// remembering every mod that set each key (for conflict reports).
/// </summary>
internal sealed class OrderedChanges<TKey, TValue>(IEqualityComparer<TKey> comparer) where TKey : notnull
{
    private readonly Dictionary<TKey, int> _positions = new(comparer);
    private readonly List<(TKey Key, TValue Value, List<string> Mods)> _items = new();

    public void Set(TKey key, TValue value, string mod)
    {
        if (_positions.TryGetValue(key, out int at))
        {
            var mods = _items[at].Mods;
            mods.Add(mod);
            _items[at] = (_items[at].Key, value, mods);
        }
        else
        {
            _positions[key] = _items.Count;
            _items.Add((key, value, new List<string> { mod }));
        }
    }

    public bool TryGetValue(TKey key, out TValue value)
    {
        bool found = _positions.TryGetValue(key, out int at);
        value = found ? _items[at].Value : default!;
        return found;
    }

    public IEnumerable<TValue> Values => _items.Select(i => i.Value);

    /// <summary>Keys set by more than one mod, with the mods in the order they set it.</summary>
    public IEnumerable<(TKey Key, IReadOnlyList<string> Mods)> Conflicts =>
        _items.Where(i => i.Mods.Count > 1).Select(i => (i.Key, (IReadOnlyList<string>)i.Mods));
}
