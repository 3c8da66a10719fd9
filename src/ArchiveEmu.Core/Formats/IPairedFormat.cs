namespace ArchiveEmu.Core.Formats;

/// <summary>
/// A format whose archive is recognised by a companion file beside it rather than by its bytes (IMG v1: <c>x.img</c> by its
/// <c>x.dir</c>), and whose index is read from that companion too.
/// </summary>
internal interface IPairedFormat : IArchiveFormat
{
    /// <summary>
    /// Whether the whole file at <paramref name="path"/> is one, its content having suggested <paramref name="byContent"/>
    /// (null for none); a guess this format outranks is given so it can overrule it. Never throws.
    /// </summary>
    bool IsPaired(string path, IArchiveFormat? byContent);

    /// <summary>What to add to "not an archive format ArchiveEmu knows" for <paramref name="path"/> ("; as IMG v1: …"), or "".</summary>
    string NotKnownBecause(string path);

    /// <summary>
    /// Files other than the archive at <paramref name="path"/> that its index is read from, so that whatever depends on the
    /// archive's bytes (the cache key) notices when one of them changes.
    /// </summary>
    IReadOnlyList<string> CompanionFiles(string path);
}
