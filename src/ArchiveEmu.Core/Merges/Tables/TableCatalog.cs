namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// The tables Persona Essentials merges, per game, with the field layout of every segment: our transcription of the
/// resolvers in Essentials' Persona.Merger.Common/Patching/Tbl/FieldResolvers and the file list in
/// p5rpc.modloader/Merging/Tbl (docs/TABLES.md gives each layout's source and where we read past a resolver's slip).
/// </summary>
internal static class TableCatalog
{
    private static readonly FieldLayout Bytes = FieldLayout.Bytes, U16 = FieldLayout.U16, U32 = FieldLayout.U32;
    private static FieldLayout L(string widths) => FieldLayout.Parse(widths);

    private static MergeableTable Tbl(string path, params FieldLayout[] segments) => new(path, TableShape.Segmented, segments);
    private static MergeableTable Flat(string path, int width) => MergeableTable.Flat(path, width);

    // P4G and P3P: containers with little-endian lengths inside init_free.bin; null marks a segment Essentials merges no field of.
    private static MergeableTable LeTbl(string path, params FieldLayout?[] segments) => new(path, TableShape.Segmented, segments) { LittleEndian = true };
    private static FieldLayout?[] Repeat(FieldLayout? layout, int count) => Enumerable.Repeat(layout, count).ToArray();
    private static Dictionary<string, int> Companions(params (string Name, int Segment)[] files) =>
        files.ToDictionary(f => f.Name, f => f.Segment, StringComparer.OrdinalIgnoreCase);

    private static readonly MergeableTable[] P5R =
    [
        // Segment order and count: P5RTblPatcher.GeneratePatch and P5RTblSegmentFinder.GetSegmentCount.
        Tbl("BATTLE/TABLE/SKILL.TBL", Bytes, Bytes, U32, L("2x2 4x14")),
        Tbl("BATTLE/TABLE/ELSAI.TBL", L("2x2 4x10"), L("4x5 (4x2 1x24)x9 2x6")),
        Tbl("BATTLE/TABLE/ITEM.TBL",
            L("4 2x5 1x6 2x10 1x2 2x11"),   // accessories, 64-byte records
            L("4 2x8 1x6 2x10 1x2"),        // armour, 48
            L("4 2x10 1x2 2x11"),           // consumables, 48
            L("4 2x4"),                     // key items, 12
            L("4 2x8 1x2 2x11"),            // materials, 44
            L("4 2x8 1x6 2x9 1x2 2"),       // melee weapons, 48
            L("4 2x14"),                    // outfits, 32
            L("4 2x10"),                    // skill cards, 24
            L("4 2x10 1x6 2x7 1x2 2x43"),   // ranged weapons, 132
            Bytes),                         // footer
        Tbl("BATTLE/TABLE/EXIST.TBL", U16),
        Tbl("BATTLE/TABLE/PLAYER.TBL", U32, U16, U16, U16, U32, Bytes),
        Tbl("BATTLE/TABLE/ENCOUNT.TBL", L("1x2 2x13 1x2 2 1x4 2 1x4 2"), Bytes, Bytes),
        Tbl("BATTLE/TABLE/PERSONA.TBL", Bytes, L("1x12 (2 1 1)x14 2"), U32, L("2 1x2 (1 1 2)x32 1x490")),
        Tbl("BATTLE/TABLE/AICALC.TBL", Bytes, U32, U32, U32, U32, Bytes, U32),
        Tbl("BATTLE/TABLE/VISUAL.TBL", L("4x26 2x4 4x4 2x36"), Bytes, U16, Bytes, U32, Bytes),
        Tbl("BATTLE/TABLE/UNIT.TBL", L("2 1x4 2 1x14 2x12 1x18 2x2"), U16, U16, Bytes, U16, Bytes),
        new("BATTLE/TABLE/NAME.TBL", TableShape.NameTable, []),
        Flat("CALENDAR/CLDWEATHER.BIN", 1),
        Flat("RESOURCE/RESRCNPCEXIST.BIN", 1),
        Flat("EVENT/EVTDATEOFFTABLE.BIN", 2),
        Flat("EVENT/EVTDATETABLE.BIN", 2),
        Flat("EVENT/EVTDDDECOTABLE.BIN", 2),
        Flat("EVENT/EVTFADEOUTTABLE.BIN", 2),
        Flat("INIT/PMCHATINVITE365TBL.DAT", 2),
        Flat("RESOURCE/RESRCNPCTBL.BIN", 2),
        Flat("INIT/SHDPERSONA.PDD", 4),
        Flat("INIT/SHDPERSONAENEMY.PDD", 4),
    ];

    // P4GTblPatcher / P4GTblSegmentFinder / P4GTblMerger; paths through init_free.bin, the PAK at data.cpk's root.
    private static readonly MergeableTable[] P4G =
    [
        LeTbl("init_free.bin/battle/AICALC.TBL", [.. Repeat(Bytes, 9), null, null]) with { Companions = Companions(("friend.bf", 9), ("enemy.bf", 10)) },
        LeTbl("init_free.bin/battle/EFFECT.TBL", Bytes),
        LeTbl("init_free.bin/battle/ENCOUNT.TBL", U16, Bytes, Bytes, Bytes, Bytes),
        LeTbl("init_free.bin/battle/MODEL.TBL", U16, U16, U16),
        LeTbl("init_free.bin/battle/MSG.TBL", L("21"), L("23"), L("21"), L("21"), null) with { Companions = Companions(("MSGTBL.bmd", 4)) },
        LeTbl("init_free.bin/battle/PERSONA.TBL", Bytes, L("1x12 (2 1 1)x14 2"), L("2 1x2 (1 1 2)x32 1x490"), U32, Bytes, U16),
        LeTbl("init_free.bin/battle/SKILL.TBL", Bytes, Bytes),
        LeTbl("init_free.bin/battle/UNIT.TBL", L("2 1x2 2x2 1x6 2x23"), U16, U16),
        new("init_free.bin/init/itemtbl.bin", TableShape.ItemTable, [L("1x5 2 1 2x4 4 2x24"), Bytes, L("24")])
        {
            Items = new ItemTableLayout(CountSegment: 0, Fixed: [0, 28, 0], PerItem: [68, 0, 24]),
        },
        Flat("facility/cmbroot/ps_model.bin", 4),
    ];

    // P3PTblPatcher / P3PTblSegmentFinder / P3PTblMerger.
    private static readonly MergeableTable[] P3P =
    [
        LeTbl("init_free.bin/battle/AICALC.TBL", [.. Repeat(Bytes, 16), null, null]) with { Companions = Companions(("friend.bf", 16), ("enemy.bf", 17)) },
        LeTbl("init_free.bin/battle/EFFECT.TBL", [Bytes, .. Repeat(null, 4)]),
        LeTbl("init_free.bin/battle/ENCOUNT.TBL", [U16, .. Repeat(null, 4)]),
        LeTbl("init_free.bin/battle/MODEL.TBL", U16, U16, U16),
        LeTbl("init_free.bin/battle/MSG.TBL", L("21"), L("19"), L("19"), L("17"), null) with { Companions = Companions(("MSGTBL.bmd", 4)) },
        LeTbl("init_free.bin/battle/PERSONA.TBL", [Bytes, L("1x8 (2 1 1)x15 2"), L("2 1x2 (1 1 2)x32 1x490"), U32, Bytes, U16, .. Repeat(Bytes, 10)]),
        LeTbl("init_free.bin/battle/SKILL.TBL", Bytes, L("1x18 2x3 1x16"), Bytes),
        LeTbl("init_free.bin/battle/UNIT.TBL", L("2 1x2 2x2 1x6 2x24"), U16, U16),
        new("init_free.bin/init/itemtbl.bin", TableShape.ItemTable, [Bytes, U16, Bytes])
        {
            Items = new ItemTableLayout(CountSegment: 1, Fixed: [12, 0, 2244], PerItem: [0, 56, 0]),
        },
        Flat("data/facility/combine.bin/ps_model.bin", 4),
        Flat("data/facility/elvgirl.bin/ps_model.bin", 4),
        Flat("data/facility/elvgirl_m.bin/ps_model.bin", 4),
    ];

    /// <summary>Every table merged for <paramref name="game"/>.</summary>
    public static IReadOnlyList<MergeableTable> For(PersonaGame game) => game switch
    {
        PersonaGame.P5R => P5R,
        PersonaGame.P4G => P4G,
        _ => P3P,
    };

    /// <summary>
    /// The table whose segment the file at <paramref name="entryPath"/> replaces whole (a companion beside it in the same
    /// folder, <see cref="MergeableTable.Companions"/>), and the companion's name as the catalogue spells it; or null.
    /// </summary>
    public static (MergeableTable Table, string Companion)? CompanionAt(PersonaGame game, string entryPath) => CompanionAt(For(game), entryPath);

    /// <summary>As <see cref="CompanionAt(PersonaGame, string)"/>, among <paramref name="tables"/>.</summary>
    public static (MergeableTable Table, string Companion)? CompanionAt(IReadOnlyList<MergeableTable> tables, string entryPath)
    {
        var path = entryPath.Replace('\\', '/').TrimStart('/');
        int slash = path.LastIndexOf('/');
        foreach (var table in tables)
        {
            int tableSlash = table.Path.LastIndexOf('/');
            if (tableSlash != slash || !string.Equals(table.Path[..(tableSlash + 1)], path[..(slash + 1)], StringComparison.OrdinalIgnoreCase))
                continue;
            foreach (var name in table.Companions.Keys)
            {
                if (string.Equals(name, path[(slash + 1)..], StringComparison.OrdinalIgnoreCase))
                    return (table, name);
            }
        }
        return null;
    }

    /// <summary>
    /// The mergeable table at <paramref name="entryPath"/> (its path from its CPK's root, through the PAK that holds it
    /// for P4G and P3P: <c>init_free.bin/battle/UNIT.TBL</c>; '/' or '\' separated, compared ignoring case), or null
    /// when <paramref name="game"/> merges no table there.
    /// </summary>
    public static MergeableTable? Find(PersonaGame game, string entryPath) => Find(For(game), entryPath);

    /// <summary>As <see cref="Find(PersonaGame, string)"/>, among <paramref name="tables"/>.</summary>
    public static MergeableTable? Find(IReadOnlyList<MergeableTable> tables, string entryPath)
    {
        var path = entryPath.Replace('\\', '/').TrimStart('/');
        foreach (var table in tables)
        {
            if (string.Equals(table.Path, path, StringComparison.OrdinalIgnoreCase))
                return table;
        }
        return null;
    }
}
