namespace ArchiveEmu.Cli.Bench;

/// <summary>One read request a path sends to the filesystem: which file, where, how many bytes.</summary>
internal readonly record struct IoRequest(string File, long Offset, int Length);

/// <summary>
/// The requests one access pattern (a whole-archive read, or the random reads) sent to the filesystem, in
/// order — what the device model prices. A piece starts wherever a request does not continue the previous one.
/// </summary>
internal sealed class ReadTrace
{
    private readonly List<IoRequest> _requests = new();

    public IReadOnlyList<IoRequest> Requests => _requests;

    public void Add(string file, long offset, int length) => _requests.Add(new IoRequest(file, offset, length));

    public int Reads => _requests.Count;

    public long Bytes => _requests.Sum(r => (long)r.Length);

    public int Files => _requests.Select(r => r.File).Distinct().Count();

    /// <summary>Requests that do not start where the previous one ended (in the same file): each is a seek on a hard disk.</summary>
    public int Pieces
    {
        get
        {
            int pieces = 0;
            IoRequest? previous = null;
            foreach (var r in _requests)
            {
                if (previous is not { } p || p.File != r.File || p.Offset + p.Length != r.Offset)
                    pieces++;
                previous = r;
            }
            return pieces;
        }
    }
}
