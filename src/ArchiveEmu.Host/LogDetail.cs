using Microsoft.Extensions.Logging;
using Serilog.Events;

namespace ArchiveEmu.Host;

/// <summary>
/// The host's detail lines (storage, codec speeds, each build, passthrough copies, read statistics), logged with
/// <see cref="Event"/>: with a log file (run's, under Steam) they go to the file only, so the terminal leads with what a
/// player acts on; without one (mount in a terminal) the console shows them.
/// </summary>
internal static class LogDetail
{
    private const int Id = 1001;

    public static readonly EventId Event = new(Id, "detail");

    /// <summary>Whether <paramref name="e"/> was logged with <see cref="Event"/> (Serilog's logging bridge keeps it as the EventId structure).</summary>
    public static bool Is(LogEvent e) =>
        e.Properties.TryGetValue("EventId", out var id) && id is StructureValue s && s.Properties.Any(p => p is { Name: "Id", Value: ScalarValue { Value: Id } });
}
