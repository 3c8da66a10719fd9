using System.Collections.Concurrent;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// Lets one warning text through per <see cref="Quiet"/> period. A failure that every lookup meets (an archive that
/// cannot be built while a mod file is being replaced) would otherwise write the same line hundreds of times a second.
/// </summary>
internal sealed class RepeatedWarnings(TimeSpan quiet, Func<DateTime> now)
{
    private readonly ConcurrentDictionary<string, (DateTime Last, int Skipped)> _seen = new(StringComparer.Ordinal);

    public RepeatedWarnings() : this(TimeSpan.FromSeconds(10), () => DateTime.UtcNow) { }

    public TimeSpan Quiet { get; } = quiet;

    /// <summary>Whether to log <paramref name="text"/> now, and how many identical ones were held back since it last was.</summary>
    public bool ShouldLog(string text, out int skipped)
    {
        var time = now();
        skipped = 0;
        while (true)
        {
            if (!_seen.TryGetValue(text, out var seen))
            {
                if (_seen.TryAdd(text, (time, 0)))
                    return true;
                continue;
            }
            bool due = time - seen.Last >= Quiet;
            var next = due ? (time, 0) : (seen.Last, seen.Skipped + 1);
            if (!_seen.TryUpdate(text, next, seen))
                continue;
            skipped = due ? seen.Skipped : 0;
            return due;
        }
    }
}
