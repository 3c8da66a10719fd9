namespace ArchiveEmu.Host.Fuse;

/// <summary>
/// Which version of a path a lookup or an open saw. The FUSE layers only compare two (equal: the same bytes, so a node's
/// size and cached pages still hold); what a version is belongs to the file system that makes them.
/// </summary>
internal abstract record FileVersion;
