namespace ArchiveEmu.Host.Fuse;

/// <summary>A running mount, whichever way it speaks FUSE: libfuse (<see cref="FuseMount"/>) or the kernel protocol directly.</summary>
internal interface IMountSession : IDisposable
{
    /// <summary>
    /// Calls <paramref name="handler"/> when serving ends without <see cref="Stop"/> (someone unmounted us), or at once if
    /// it already has.
    /// </summary>
    void OnEndedUnexpectedly(Action<int> handler);

    /// <summary>How reads of unchanged files are served, for the start-up log line.</summary>
    string Describe();

    /// <summary>Drops what the kernel cached for <paramref name="relativePath"/> (attributes, pages, the name); errors are ignored.</summary>
    void Invalidate(string relativePath);

    /// <summary>Stops serving and unmounts; false if a process kept the mount busy past <paramref name="wait"/> (detached lazily then).</summary>
    bool Stop(TimeSpan wait);
}
