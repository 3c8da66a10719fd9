namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>How a mergeable table is laid out, which decides how its mods' edits merge.</summary>
internal enum TableShape
{
    /// <summary>A TBL container: segments, each an s32 length, its data, zeros to the next multiple of 16.</summary>
    Segmented,

    /// <summary>P5R's NAME.TBL: segment pairs of big-endian u16 string offsets and NUL-terminated strings, merged per string.</summary>
    NameTable,

    /// <summary>A file with no container: one run of fields from its first byte to its end.</summary>
    Flat,

    /// <summary>P4G's and P3P's itemtbl.bin: an s32 count of items, then segments back to back whose lengths follow from it.</summary>
    ItemTable,
}

/// <summary>
/// An itemtbl.bin's segments: segment i is <c>Fixed[i] + count × PerItem[i]</c> bytes; the count written in front is
/// segment <see cref="CountSegment"/>'s length over its PerItem (Essentials' P4G and P3P ItemTbl and Apply).
/// </summary>
internal sealed record ItemTableLayout(int CountSegment, int[] Fixed, int[] PerItem);

/// <summary>
/// A table Persona Essentials merges: its path (inside its CPK, through the PAK that holds it for P4G and P3P), its
/// shape, and the field layout of each segment in order (null: Essentials merges no field of it, the game's stays).
/// </summary>
internal sealed record MergeableTable(string Path, TableShape Shape, IReadOnlyList<FieldLayout?> Segments)
{
    /// <summary>Whether the container's lengths are little-endian (P4G, P3P) rather than big-endian (P5R).</summary>
    public bool LittleEndian { get; init; }

    /// <summary>For <see cref="TableShape.ItemTable"/>: how its segments are sized.</summary>
    public ItemTableLayout? Items { get; init; }

    /// <summary>Files beside the table in the same folder that replace one segment whole (P4G's MSGTBL.bmd: MSG.TBL's segment 4), by name ignoring case.</summary>
    public IReadOnlyDictionary<string, int> Companions { get; init; } = new Dictionary<string, int>();

    /// <summary>
    /// Whether the table's text differs by language (P5R's NAME.TBL, P4G's and P3P's MSG.TBL): in a game not played in English,
    /// Essentials merges only mod files localised for the game's language (its PatchNameTable and PatchMsgTable), since
    /// tables of two languages cannot be merged.
    /// </summary>
    public bool OneLanguage => System.IO.Path.GetFileName(Path) is var name
        && (name.Equals("NAME.TBL", StringComparison.OrdinalIgnoreCase) || name.Equals("MSG.TBL", StringComparison.OrdinalIgnoreCase));

    /// <summary>How many segments the container holds (Essentials reads exactly this many).</summary>
    public int SegmentCount => Shape == TableShape.NameTable ? NameTableSegments : Segments.Count;

    /// <summary>A table with no container, one run of fields of <paramref name="width"/> bytes (Persona.Merger.Common's <c>GeneratePatchGeneric</c>).</summary>
    public static MergeableTable Flat(string path, int width) => new(path, TableShape.Flat, [FieldLayout.OfWidth(width)]);

    /// <summary>NAME.TBL's 19 pairs of an offset segment and a string segment (Essentials' P5RTblSegmentFinder).</summary>
    public const int NameTableSegments = 38;
}
