using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// Builds an emulated ID-only CPK: changes keyed by ID (<c>EntryKey.ByIndex(id)</c>), entries laid out in ID order from
/// the content offset (an ITOC holds no offsets: readers derive them from that order), DataL holding the entries whose
/// sizes fit 16 bits and DataH the rest, FilesL/FilesH their counts.
/// </summary>
internal static class CpkIdBuilder
{
    public static EmulatedArchive Build(CpkIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var changes = new Dictionary<long, EntryChange>();
        var position = original.Ids.Select((id, i) => (id, i)).ToDictionary(p => p.id, p => p.i);
        long maxId = IdLimit(original);
        foreach (var change in patch.Changes)
        {
            if (!change.Key.IsIndex || change.Key.Index < 0 || change.Key.Index > maxId)
                throw Refuse(original, $"entries of an ID-only CPK are addressed by ID from 0 to {maxId}; '{change.Key}' (from {change.Origin}) is not one");
            if (change.IsDelete && !position.ContainsKey(change.Key.Index))
                throw Refuse(original, $"cannot delete ID {change.Key.Index} (from {change.Origin}): the CPK has no such ID");
            if (!changes.TryAdd(change.Key.Index, change))
                throw Refuse(original, $"ID {change.Key.Index} is changed twice ({changes[change.Key.Index].Origin}, {change.Origin})");
        }

        var ids = original.Ids.Concat(changes.Keys.Where(id => !position.ContainsKey(id))).Distinct().Order().ToList();
        var kept = new List<(long Id, CpkSlot Slot, long Extract, EntryChange? Change, int OldIndex)>();
        foreach (long id in ids)
        {
            changes.TryGetValue(id, out var change);
            int old = position.TryGetValue(id, out var p) ? p : -1;
            if (change?.IsDelete == true)
                continue;
            var slot = change is null ? new CpkSlot(original.Entries[old], null) : new CpkSlot(null, change.Input);
            kept.Add((id, slot, change is null ? original.ExtractSizes[old] : slot.Size, change, old));
        }

        var itoc = UtfRows.Clone(original.Layout.Itoc!.Table);
        var small = kept.Where(k => k.Slot.Size <= ushort.MaxValue && k.Extract <= ushort.MaxValue).ToList();
        var large = kept.Except(small).ToList();
        SetPart(itoc, "DataL", "FilesL", Part(original.Layout.ItocL, original.Layout.ItocH, "CpkItocL", UtfType.U16, small));
        SetPart(itoc, "DataH", "FilesH", Part(original.Layout.ItocH, original.Layout.ItocL, "CpkItocH", UtfType.U32, large));

        var header = UtfRows.Clone(original.Header.Table);
        CpkBuilder.SetTotals(original, header, kept.Count, kept.Sum(k => k.Slot.Size), kept.Sum(k => k.Extract));
        var file = CpkLayoutWriter.Write(original, header, CpkBuilder.TablePlans(original, null, itoc),
            kept.Select(k => k.Slot).ToList(), (_, _) => { }, pool);

        var entries = kept.Select((k, i) => new EmulatedEntry(i, null, k.Slot.Size,
            k.Change is null ? EntryState.Original : k.OldIndex < 0 ? EntryState.Added : EntryState.Replaced,
            EmulatedEntry.OriginOf(k.Change), k.Change?.Input)).ToList();
        foreach (var (id, change) in changes.Where(c => c.Value.IsDelete).OrderBy(c => c.Key))
            entries.Add(new EmulatedEntry(position[id], null, 0, EntryState.Deleted, change.Origin));
        return new EmulatedArchive(original, file, entries);
    }

    // The ITOC's ID column is 16-bit in CRI's files; a wider one allows more.
    private static long IdLimit(CpkIndex original)
    {
        var part = original.Layout.ItocL ?? original.Layout.ItocH;
        var type = part?.Columns[part.ColumnIndex("ID")].Type ?? UtfType.U16;
        return type is UtfType.U8 ? byte.MaxValue : type is UtfType.U16 ? ushort.MaxValue : int.MaxValue;
    }

    /// <summary>The DataL or DataH table for <paramref name="rows"/>: the original's columns, or the other part's with sizes of <paramref name="sizeType"/>.</summary>
    private static UtfTable? Part(UtfTable? same, UtfTable? other, string name, UtfType sizeType,
        List<(long Id, CpkSlot Slot, long Extract, EntryChange? Change, int OldIndex)> rows)
    {
        if (same is null && rows.Count == 0)
            return null;
        var template = same ?? new UtfTable(name, other?.Columns.Select(c => c.Name is "FileSize" or "ExtractSize"
                ? new UtfColumn(c.Name, sizeType, UtfStorage.PerRow) : c with { Storage = UtfStorage.PerRow, Constant = null }).ToList()
            ?? [new UtfColumn("ID", UtfType.U16, UtfStorage.PerRow), new UtfColumn("FileSize", sizeType, UtfStorage.PerRow),
                new UtfColumn("ExtractSize", sizeType, UtfStorage.PerRow)], [], other?.Masked ?? false, other?.Version ?? 0, other?.Encoding ?? 0);
        var table = UtfRows.Clone(template, []);
        foreach (var r in rows)
        {
            var row = UtfRows.Added(table);
            row[table.ColumnIndex("ID")] = table.Columns[table.ColumnIndex("ID")].ToIntegerValue(r.Id);
            row[table.ColumnIndex("FileSize")] = table.Columns[table.ColumnIndex("FileSize")].ToIntegerValue(r.Slot.Size);
            if (table.ColumnIndex("ExtractSize") is var e and >= 0)
                row[e] = table.Columns[e].ToIntegerValue(r.Extract);
            table.Rows.Add(row);
        }
        return table;
    }

    private static void SetPart(UtfTable itoc, string dataColumn, string countColumn, UtfTable? part)
    {
        int c = itoc.ColumnIndex(dataColumn);
        if (c >= 0 && part is not null)
            itoc.Rows[0][c] = UtfTableWriter.Write(part);
        itoc.SetInteger(0, countColumn, part?.Rows.Count ?? 0);
    }

    private static ArchiveFormatException Refuse(CpkIndex original, string problem) => new(original.Source.Name, 0, problem);
}
