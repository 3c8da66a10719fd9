using ArchiveEmu.Host.Fuse;

namespace ArchiveEmu.Host.Tests.Fuse;

/// <summary>A file version for tests of what compares versions: equal when the names are.</summary>
internal sealed record TestVersion(string Name) : FileVersion;
