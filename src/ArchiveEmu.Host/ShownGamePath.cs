using ArchiveEmu.Host.Fuse;
using Serilog.Core;
using Serilog.Events;

namespace ArchiveEmu.Host;

/// <summary>
/// In place, Core and the host know the game folder as <c>/proc/self/fd/N</c>; every text a log line carries shows the
/// user's game path instead. Before the handle is taken (and for a mount elsewhere) it changes nothing.
/// </summary>
internal sealed class ShownGamePath : ILogEventEnricher
{
    public GameFolderHandle? Handle { get; set; }

    public void Enrich(LogEvent logEvent, ILogEventPropertyFactory propertyFactory)
    {
        if (Handle is not { } handle)
            return;
        foreach (var (name, value) in logEvent.Properties.ToList())
            if (value is ScalarValue { Value: string text } && handle.Shown(text) is var shown && !ReferenceEquals(shown, text))
                logEvent.AddOrUpdateProperty(new LogEventProperty(name, new ScalarValue(shown)));
    }
}
