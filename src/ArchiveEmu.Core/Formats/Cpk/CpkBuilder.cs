using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// Builds an emulated CPK. Named CPKs: entries replaced, added and deleted by "DirName/FileName" (ignoring case), the
/// TOC rebuilt (added rows keep a sorted TOC sorted), the ETOC's rows following the TOC's. ID-only CPKs: entries by
/// ID (<c>EntryKey.ByIndex(id)</c> means the ID, not the row position), the ITOC's DataL/DataH rebuilt in ID order.
/// Replaced and added entries are stored uncompressed (FileSize = ExtractSize); unchanged ones, compressed or not, are
/// slices of the original. The header's offsets, sizes, Files and Enabled*Size sums follow the new layout; CRC fields
/// are kept as found (docs/FORMATS.md, "CRI CPK").
/// </summary>
internal static class CpkBuilder
{
    private static readonly NameRule Names = new("CPK", StringComparer.OrdinalIgnoreCase, "a path inside the CPK (\"dir/file\")",
        name => name[0] != '/' && !name.EndsWith('/') && !name.Contains("//", StringComparison.Ordinal));

    public static EmulatedArchive Build(CpkIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        try
        {
            return original.IsIdOnly ? CpkIdBuilder.Build(original, patch, pool) : BuildNamed(original, patch, pool);
        }
        catch (OverflowException e)
        {
            throw new ArchiveFormatException(original.Source.Name, 0, $"the emulated CPK does not fit its tables' field widths ({e.Message})");
        }
        catch (UtfColumnTypeException e)
        {
            throw new ArchiveFormatException(original.Source.Name, 0, $"a table of the CPK stores a size or count in a column that holds no integers ({e.Message})");
        }
    }

    /// <summary>Refuses adding or deleting entries where tables ArchiveEmu keeps as found index the entries.</summary>
    internal static void RefuseCountChange(CpkIndex original, string what)
    {
        var kept = original.Layout.Raw.Select(r => r.OffsetColumn[..^"Offset".Length].ToUpperInvariant()).ToList();
        if (original.Layout.Toc is not null && original.Layout.Itoc is not null)
            kept.Add("ITOC");
        if (kept.Count > 0)
            throw new ArchiveFormatException(original.Source.Name, 0,
                $"cannot {what}: this CPK has a {string.Join(", ", kept)} table, which ArchiveEmu keeps as found and which lists the entries; only replacing entries is supported");
    }

    private static EmulatedArchive BuildNamed(CpkIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var toc = original.Layout.Toc!;
        var changes = NamedPatch.ByName(original, patch, Names);
        var (changeOf, added) = NamedPatch.Match(original, original.Entries.Select(e => e.Name!).ToArray(), changes, Names);
        if (added.Count > 0)
            RefuseCountChange(original, $"add '{added[0].Key.Name}' (from {added[0].Origin})");
        if (changeOf.FirstOrDefault(c => c is { IsDelete: true }) is { } delete)
            RefuseCountChange(original, $"delete '{delete.Key.Name}' (from {delete.Origin})");

        // Content in the original's order; replaced entries where they were, added ones after.
        var slotOf = new Dictionary<int, CpkSlot>();
        var content = new List<CpkSlot>();
        foreach (var old in original.Entries.OrderBy(e => e.Offset))
        {
            var change = changeOf[old.Index];
            if (change?.IsDelete == true)
                continue;
            var slot = new CpkSlot(change is null ? old : null, change?.Input);
            slotOf[old.Index] = slot;
            content.Add(slot);
        }

        // TOC rows: kept rows in order, added rows appended or, in a sorted TOC, inserted in order.
        var rows = new List<(object?[] Row, int OldIndex, EntryChange? Change, CpkSlot Slot, string Name)>();
        for (int i = 0; i < toc.Table.Rows.Count; i++)
            if (changeOf[i]?.IsDelete != true)
                rows.Add(((object?[])toc.Table.Rows[i].Clone(), i, changeOf[i], slotOf[i], original.Entries[i].Name!));
        long nextId = original.Ids.Count == 0 ? 0 : original.Ids.Max() + 1;
        bool keepSorted = original.Header.Table.GetInteger(0, "Sorted") == 1 && IsSorted(original.Entries.Select(e => e.Name!).ToList());
        foreach (var change in added)
        {
            var row = UtfRows.Added(toc.Table);
            string name = change.Key.Name!;
            int slash = name.LastIndexOf('/');
            Set(toc.Table, row, "DirName", slash < 0 ? "" : name[..slash]);
            Set(toc.Table, row, "FileName", name[(slash + 1)..]);
            if (toc.Table.Has("ID"))
                Set(toc.Table, row, "ID", ToColumn(toc.Table, "ID", nextId++));
            var slot = new CpkSlot(null, change.Input);
            content.Add(slot);
            int at = keepSorted ? rows.FindIndex(r => string.CompareOrdinal(r.Name, name) > 0) : -1;
            rows.Insert(at < 0 ? rows.Count : at, (row, -1, change, slot, name));
        }
        foreach (var r in rows.Where(r => r.Change is not null))
            SetSize(toc.Table, r.Row, r.Slot.Size);

        var newToc = UtfRows.Clone(toc.Table, rows.Select(r => r.Row).ToList());
        var header = UtfRows.Clone(original.Header.Table);
        var tables = TablePlans(original, newToc, null);
        var etocPlan = tables.FirstOrDefault(t => t.OffsetColumn == "EtocOffset");
        if (etocPlan is not null && (added.Count > 0 || rows.Count != toc.Table.Rows.Count))
            EtocRows(etocPlan.Table!, rows.Select(r => (r.OldIndex, r.Name)).ToList(), toc.Table.Rows.Count);
        SetTotals(original, header, rows.Count, rows.Sum(r => r.Slot.Size), rows.Sum(r => r.Change is null ? original.ExtractSizes[r.OldIndex] : r.Slot.Size));

        var file = CpkLayoutWriter.Write(original, header, tables, content, (contentOffset, tocOffset) =>
        {
            long fileOffsetBase = Math.Min(contentOffset, tocOffset);
            for (int i = 0; i < rows.Count; i++)
                newToc.Rows[i][newToc.ColumnIndex("FileOffset")] = ToColumn(newToc, "FileOffset", rows[i].Slot.Position - fileOffsetBase);
        }, pool);

        var entries = rows.Select((r, i) => new EmulatedEntry(i, r.Name, r.Slot.Size,
            r.Change is null ? EntryState.Original : r.OldIndex < 0 ? EntryState.Added : EntryState.Replaced,
            EmulatedEntry.OriginOf(r.Change), r.Change?.Input)).ToList();
        for (int i = 0; i < changeOf.Length; i++)
            if (changeOf[i] is { IsDelete: true } d)
                entries.Add(new EmulatedEntry(i, original.Entries[i].Name, 0, EntryState.Deleted, d.Origin));
        return new EmulatedArchive(original, file, entries);
    }

    /// <summary>The plans for every table but the header: <paramref name="toc"/> and <paramref name="itoc"/> as given, the rest as found.</summary>
    internal static List<CpkTablePlan> TablePlans(CpkIndex original, UtfTable? toc, UtfTable? itoc)
    {
        var h = original.Header.Table;
        long SizeField(string column) => h.GetInteger(0, column) ?? 0;
        var l = original.Layout;
        var plans = new List<CpkTablePlan>();
        if (l.Toc is not null)
            plans.Add(CpkTablePlan.Rebuilt(l.Toc, toc ?? UtfRows.Clone(l.Toc.Table), "TocOffset", "TocSize", SizeField("TocSize")));
        if (l.Itoc is not null)
            plans.Add(CpkTablePlan.Rebuilt(l.Itoc, itoc ?? UtfRows.Clone(l.Itoc.Table), "ItocOffset", "ItocSize", SizeField("ItocSize")));
        if (l.Etoc is not null)
            plans.Add(CpkTablePlan.Rebuilt(l.Etoc, UtfRows.Clone(l.Etoc.Table), "EtocOffset", "EtocSize", SizeField("EtocSize")));
        plans.AddRange(l.Raw.Select(r => CpkTablePlan.Copied(r, SizeField(r.SizeColumn))));
        return plans;
    }

    /// <summary>Files, EnabledPackedSize (sum of FileSize) and EnabledDataSize (sum of ExtractSize); TotalFiles and TotalDataSize moved by the same difference.</summary>
    internal static void SetTotals(CpkIndex original, UtfTable header, long files, long packed, long extracted)
    {
        void Update(string column, long value)
        {
            int c = header.ColumnIndex(column);
            if (c >= 0 && (header.Columns[c].Storage != UtfStorage.Zero || value != 0))
                header.SetInteger(0, column, value);
        }
        long oldPacked = original.Entries.Sum(e => e.Size);
        long Old(string column) => header.GetInteger(0, column) ?? 0;
        Update("Files", files);
        if (Old("TotalFiles") != 0)
            Update("TotalFiles", Old("TotalFiles") + files - original.Entries.Count);
        Update("EnabledPackedSize", packed);
        Update("EnabledDataSize", extracted);
        if (Old("TotalDataSize") != 0)
            Update("TotalDataSize", Old("TotalDataSize") + packed - oldPacked);
    }

    // The ETOC has a row per TOC row (plus any trailing rows): kept rows follow their entry, added rows get zeros.
    private static void EtocRows(UtfTable etoc, List<(int OldIndex, string Name)> rows, int oldCount)
    {
        if (etoc.Rows.Count < oldCount)
            return; // not one row per entry: kept as found
        var old = etoc.Rows.ToList();
        etoc.Rows.Clear();
        foreach (var (oldIndex, name) in rows)
        {
            if (oldIndex >= 0)
            {
                etoc.Rows.Add(old[oldIndex]);
                continue;
            }
            var row = UtfRows.Added(etoc);
            int slash = name.LastIndexOf('/');
            Set(etoc, row, "LocalDir", slash < 0 ? "" : name[..slash]);
            etoc.Rows.Add(row);
        }
        etoc.Rows.AddRange(old.Skip(oldCount));
    }

    private static void SetSize(UtfTable toc, object?[] row, long size)
    {
        row[toc.ColumnIndex("FileSize")] = ToColumn(toc, "FileSize", size);
        if (toc.ColumnIndex("ExtractSize") is var e and >= 0)
            row[e] = ToColumn(toc, "ExtractSize", size);
    }

    private static object ToColumn(UtfTable t, string column, long value) => t.Columns[t.ColumnIndex(column)].ToIntegerValue(value);

    private static void Set(UtfTable t, object?[] row, string column, object? value)
    {
        if (t.ColumnIndex(column) is var c and >= 0 && value is not null)
            row[c] = value;
    }

    private static bool IsSorted(List<string> names)
    {
        for (int i = 1; i < names.Count; i++)
            if (string.CompareOrdinal(names[i - 1], names[i]) > 0)
                return false;
        return true;
    }
}
