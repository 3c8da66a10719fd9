namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Values by key in first-seen order, where a later mod's value replaces an earlier one's in place,
/// remembering every mod that set each key, and the rule that placed each (for conflict reports).
/// </summary>
internal sealed class OrderedChanges<TKey, TValue>(IEqualityComparer<TKey> comparer) where TKey : notnull
{
    private readonly Dictionary<TKey, int> _positions = new(comparer);
    private readonly List<(TKey Key, TValue Value, List<string> Mods, List<string> Rules)> _items = new();

    public void Set(TKey key, TValue value, string mod, string rule = "mirror")
    {
        if (_positions.TryGetValue(key, out int at))
        {
            var (k, _, mods, rules) = _items[at];
            mods.Add(mod);
            rules.Add(rule);
            _items[at] = (k, value, mods, rules);
        }
        else
        {
            _positions[key] = _items.Count;
            _items.Add((key, value, new List<string> { mod }, new List<string> { rule }));
        }
    }

    /// <summary>Replaces the value the last <see cref="Set"/> gave <paramref name="key"/>, as the same mod (a more specific rule of it).</summary>
    public void ReplaceLast(TKey key, TValue value, string rule)
    {
        int at = _positions[key];
        var (k, _, mods, rules) = _items[at];
        rules[^1] = rule;
        _items[at] = (k, value, mods, rules);
    }

    /// <summary>A copy that later <see cref="Set"/> calls change without touching this one (values themselves are shared).</summary>
    public OrderedChanges<TKey, TValue> Copy()
    {
        var copy = new OrderedChanges<TKey, TValue>(comparer);
        foreach (var (key, at) in _positions)
            copy._positions[key] = at;
        copy._items.AddRange(_items.Select(i => (i.Key, i.Value, i.Mods.ToList(), i.Rules.ToList())));
        return copy;
    }

    public bool TryGetValue(TKey key, out TValue value)
    {
        bool found = _positions.TryGetValue(key, out int at);
        value = found ? _items[at].Value : default!;
        return found;
    }

    public IEnumerable<TValue> Values => _items.Select(i => i.Value);

    /// <summary>How keys are compared (the archive format's names).</summary>
    public IEqualityComparer<TKey> Comparer => comparer;

    /// <summary>Keys set by more than one mod, with the mods in the order they set it and the rule each used.</summary>
    public IEnumerable<(TKey Key, IReadOnlyList<string> Mods, IReadOnlyList<string> Rules)> Conflicts =>
        _items.Where(i => i.Mods.Count > 1).Select(i => (i.Key, (IReadOnlyList<string>)i.Mods, (IReadOnlyList<string>)i.Rules));
}
