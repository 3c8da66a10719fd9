namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>
/// One inode the kernel knows: the path it stands for, how many lookups it holds, its open files and,
/// when they are passed through, the backing file they share. A node whose path moved on to a new
/// version (a hot reload while it was open) is <see cref="Detached"/>: it keeps serving its open files
/// and the attributes it last had, and new opens of the path get a new node.
/// </summary>
internal sealed class Node(ulong id, ulong parent, string path, string name)
{
    public ulong Id { get; } = id;
    public ulong Parent { get; } = parent;
    public string Path { get; } = path;
    public string Name { get; } = name;
    public ulong Lookups;
    public int OpenFiles;
    public bool Detached;
    public byte[]? LastAttr;  // the fuse_attr last sent, answered as is once detached

    private string[]? _otherSpellings; // names the kernel asked for this node by besides Name (ignore-case); it caches a dentry for each

    /// <summary>Every name in its parent the kernel may hold a dentry of this node by: <see cref="Name"/> first. Caller holds the table's lock.</summary>
    public IReadOnlyList<string> Spellings => _otherSpellings is null ? [Name] : [Name, .. _otherSpellings];

    // Caller holds the table's lock.
    internal void AddSpelling(string name)
    {
        if (name != Name && (_otherSpellings is null || !_otherSpellings.Contains(name)))
            _otherSpellings = [.. _otherSpellings ?? [], name];
    }

    public FileVersion? Version;   // the version of the file this node describes (null for a folder); its open files all read it
    public int BackingId;     // > 0 while the kernel holds a backing file for this node's passed-through opens
    public FileVersion? BackingKey; // which version that backing file holds
}

/// <summary>Nodes by id (the kernel's handle) and by path (for lookups and invalidation). Thread-safe through one lock.</summary>
internal sealed class NodeTable
{
    private readonly Dictionary<ulong, Node> _byId = new();
    private readonly Dictionary<string, Node> _byPath = new(StringComparer.Ordinal);
    private ulong _next = FuseWire.RootNode;

    public NodeTable()
    {
        var root = new Node(FuseWire.RootNode, FuseWire.RootNode, "", "") { Lookups = 1 };
        _byId[root.Id] = root;
        _byPath[""] = root;
    }

    public object Lock { get; } = new();

    public Node? Get(ulong id)
    {
        lock (Lock)
            return _byId.GetValueOrDefault(id);
    }

    public Node? AtPath(string path)
    {
        lock (Lock)
            return _byPath.GetValueOrDefault(path);
    }

    /// <summary>
    /// The node for <paramref name="name"/> in <paramref name="parent"/> at <paramref name="version"/>, with one more lookup
    /// counted: the path's node, or a new one when the path is new or its node has files open on another version. When the kernel
    /// <paramref name="asked"/> by another spelling (ignore-case), the node keeps that name too, to invalidate its dentry.
    /// </summary>
    public Node LookedUp(Node parent, string name, string path, FileVersion? version, string? asked = null)
    {
        lock (Lock)
        {
            if (!_byPath.TryGetValue(path, out var node) || !Describes(node, version))
            {
                node = new Node(++_next, parent.Id, path, name) { Version = version };
                _byId[node.Id] = node;
                _byPath[path] = node;
            }
            node.Lookups++;
            if (asked is not null)
                node.AddSpelling(asked);
            return node;
        }
    }

    /// <summary>The kernel dropped <paramref name="count"/> lookups; a node with none left and no open file is gone.</summary>
    public void Forget(ulong id, ulong count)
    {
        lock (Lock)
        {
            if (id == FuseWire.RootNode || !_byId.TryGetValue(id, out var node))
                return;
            node.Lookups = count >= node.Lookups ? 0 : node.Lookups - count;
            RemoveIfUnused(node);
        }
    }

    /// <summary>Separates <paramref name="node"/> from its path: the next lookup of the path makes a new node.</summary>
    public void Detach(Node node)
    {
        lock (Lock)
        {
            if (node.Detached)
                return;
            node.Detached = true;
            if (_byPath.GetValueOrDefault(node.Path) == node)
                _byPath.Remove(node.Path);
            RemoveIfUnused(node);
        }
    }

    /// <summary>
    /// Whether <paramref name="node"/> may describe <paramref name="version"/> of its path, which it then does: yes unless
    /// files are open on another version, in which case the node is detached (they keep it, with their size and pages)
    /// and the path's next lookup makes a node for the new version. Caller holds <see cref="Lock"/>.
    /// </summary>
    public bool Describes(Node node, FileVersion? version)
    {
        if (node.OpenFiles > 0 && !SameVersion(node.Version, version))
        {
            Detach(node);
            return false;
        }
        node.Version = version;
        return true;
    }

    /// <summary>Whether two versions are the same; a folder (null) matches anything, since nothing is opened on it as a file.</summary>
    public static bool SameVersion(FileVersion? a, FileVersion? b) => a is null || b is null || a.Equals(b);

    // Caller holds Lock.
    public void RemoveIfUnused(Node node)
    {
        if (node.Lookups > 0 || node.OpenFiles > 0 || node.Id == FuseWire.RootNode)
            return;
        _byId.Remove(node.Id);
        if (_byPath.GetValueOrDefault(node.Path) == node)
            _byPath.Remove(node.Path);
    }

    public int Count
    {
        get
        {
            lock (Lock)
                return _byId.Count;
        }
    }
}
