using System.Collections.Concurrent;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// The formats of game files, each detected from its head once and kept until <see cref="Forget"/> (a front's Invalidate):
/// a mod loader that adds inputs and opens routes in turn reads no archive head twice. A file no format knows is not kept.
/// </summary>
internal sealed class DetectedFormats
{
    private readonly ConcurrentDictionary<string, IArchiveFormat> _formats = new(StringComparer.Ordinal);

    /// <summary>The format of the game file at <paramref name="path"/> (<see cref="ArchiveFormats.Detect(string)"/>), or null.</summary>
    public IArchiveFormat? Detect(string path)
    {
        if (_formats.TryGetValue(path, out var kept))
            return kept;
        var format = ArchiveFormats.Detect(path);
        if (format is not null)
            _formats[path] = format;
        return format;
    }

    /// <summary>Forgets every format kept: the next detection reads the files again.</summary>
    public void Forget() => _formats.Clear();
}
