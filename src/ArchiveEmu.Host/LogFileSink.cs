using Microsoft.Extensions.Configuration;
using Serilog.Core;
using Serilog.Events;
using Serilog.Formatting.Display;

namespace ArchiveEmu.Host;

/// <summary>
/// Appends the host's log to a file (<c>ArchiveEmu:LogFile</c>, which <c>archiveemu run</c> sets so a failure under Steam is
/// found afterwards). Shared for writing: the CLI adds its own lines to the same file before and after the host's.
/// </summary>
internal sealed class LogFileSink : ILogEventSink, IDisposable
{
    /// <summary>The configuration key naming the file; absent, the host logs to the console only.</summary>
    public const string Setting = "ArchiveEmu:LogFile";

    private readonly MessageTemplateTextFormatter _format = new("{Timestamp:yyyy-MM-dd HH:mm:ss.fff} {Level:u3} {Message:lj}{NewLine}{Exception}");
    private readonly FileStream _file;
    private readonly object _lock = new();

    /// <summary>The sink for the file the configuration names; null when none is named or it cannot be opened (said on stderr).</summary>
    public static LogFileSink? From(IConfiguration configuration)
    {
        if (configuration[Setting] is not { Length: > 0 } path)
            return null;
        try
        {
            return new LogFileSink(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine($"archiveemu-host: {path}: cannot write the log there ({e.Message}); logging to the console only");
            return null;
        }
    }

    private LogFileSink(string path)
    {
        _file = new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.ReadWrite);
        Path = path;
    }

    /// <summary>The file, as the configuration names it.</summary>
    public string Path { get; }

    public void Emit(LogEvent logEvent)
    {
        var text = new StringWriter();
        _format.Format(logEvent, text);
        var bytes = System.Text.Encoding.UTF8.GetBytes(text.ToString());
        lock (_lock)
        {
            // .NET writes at its own position, not O_APPEND: go to the end, past the lines the CLI added meanwhile.
            _file.Seek(0, SeekOrigin.End);
            _file.Write(bytes);
            _file.Flush(); // per event: the file is read after a crash too
        }
    }

    public void Dispose() => _file.Dispose();
}
