namespace ArchiveEmu.Core.Tables;

/// <summary>How a mergeable table is laid out, which decides how its mods' edits merge.</summary>
internal enum TableShape
{
    /// <summary>A TBL container: segments, each a big-endian s32 length, its data, zeros to the next multiple of 16.</summary>
    Segmented,

    /// <summary>P5R's NAME.TBL: segment pairs of big-endian u16 string offsets and NUL-terminated strings, merged per string.</summary>
    NameTable,

    /// <summary>A file with no container: one run of fields from its first byte to its end.</summary>
    Flat,
}

/// <summary>
/// A table Persona Essentials merges: its path inside its archive (as the game names it), its shape, and the
/// field layout of each segment in order (one layout for a flat file, none for a name table).
/// </summary>
internal sealed record MergeableTable(string Path, TableShape Shape, IReadOnlyList<FieldLayout> Segments)
{
    /// <summary>How many segments the container holds (Essentials reads exactly this many).</summary>
    public int SegmentCount => Shape == TableShape.NameTable ? NameTableSegments : Segments.Count;

    /// <summary>NAME.TBL's 19 pairs of an offset segment and a string segment (Essentials' P5RTblSegmentFinder).</summary>
    public const int NameTableSegments = 38;
}
