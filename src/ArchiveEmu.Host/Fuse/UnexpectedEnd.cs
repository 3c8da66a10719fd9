namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// The end of serving nobody asked for (someone unmounted us), told to its one handler whichever comes first. An unmount
/// right after the mount call can end the workers before the service has attached its handler; an event raised then
/// reached no one, and the host kept running with nothing mounted (seen under load: `archiveemu unmount` of a mount
/// still starting).
/// </summary>
internal sealed class UnexpectedEnd
{
    private readonly Lock _gate = new();
    private Action<int>? _handler;
    private int? _code;

    /// <summary>Calls <paramref name="handler"/> when serving ends unasked, or at once (on this thread) if it already has.</summary>
    public void Handle(Action<int> handler)
    {
        int? ended;
        lock (_gate)
        {
            _handler = handler;
            ended = _code;
        }
        if (ended is { } code)
            handler(code);
    }

    /// <summary>Says serving ended with <paramref name="code"/>; only the first report counts.</summary>
    public void Report(int code)
    {
        Action<int>? handler;
        lock (_gate)
        {
            if (_code is not null)
                return;
            _code = code;
            handler = _handler;
        }
        handler?.Invoke(code);
    }
}
