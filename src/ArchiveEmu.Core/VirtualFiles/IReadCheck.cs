namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>
/// What a reader asks of a read's bytes before they are handed out (the host's source guard: the files they came from
/// still the ones the virtual file was built of). It is given the segments the read found, so it looks nothing up again.
/// </summary>
internal interface IReadCheck
{
    /// <summary>
    /// Called once the bytes of segments [<paramref name="first"/>, <paramref name="last"/>] (indices into
    /// <see cref="VirtualFile.Segments"/>) are read; throws an <see cref="IOException"/> when they must not be handed out.
    /// </summary>
    void AfterRead(int first, int last);
}
