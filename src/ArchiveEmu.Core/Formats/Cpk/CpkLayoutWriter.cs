using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>
/// Lays out an emulated CPK: the header packet at 0 (the original's bytes up to its first table kept when the header
/// did not change size, "(c)CRI" included), the tables that came before the content in their original order, the
/// content (every entry on the alignment, an unchanged one of a CPK with a TOC moved by a whole number of 4 KiB blocks; runs of unchanged entries one slice of the original, padding included), then
/// the tables that came after it (the ETOC). Table sizes and the offsets inside them depend on each other, so the
/// layout is repeated until the tables' sizes stop changing.
/// </summary>
internal static class CpkLayoutWriter
{
    /// <summary>
    /// Builds the file. <paramref name="fill"/> writes the content's positions into the tables (given the content offset and
    /// the TOC's offset); the header's table, content and size fields are set here.
    /// </summary>
    public static VirtualFile Write(CpkIndex original, UtfTable header, List<CpkTablePlan> tables, List<CpkSlot> content,
        Action<long, long> fill, FileHandlePool? pool)
    {
        var layout = original.Layout;
        var before = tables.Where(t => t.OriginalOffset < layout.ContentOffset).OrderBy(t => t.OriginalOffset).ToList();
        var after = tables.Except(before).OrderBy(t => t.OriginalOffset).ToList();
        long front = before.Count > 0 ? before[0].OriginalOffset : layout.ContentOffset;
        byte[] headerBytes = original.Header.Write(header);
        // An ID-only CPK has no offsets: its entries follow one another on the alignment, so none may move further.
        bool offsetsListed = !original.IsIdOnly;

        for (int attempt = 0; ; attempt++)
        {
            if (attempt == 8)
                throw new InvalidOperationException($"{original.Source.Name}: the CPK tables' sizes did not settle");
            long tablesStart = headerBytes.Length <= front ? front : layout.Align(headerBytes.Length);
            long pos = tablesStart;
            foreach (var t in before)
            {
                t.Offset = t == before[0] ? pos : layout.Align(pos); // the first where the original had its first
                pos = t.Offset + t.Length;
            }
            long contentOffset = layout.Align(pos);
            pos = contentOffset;
            foreach (var slot in content)
            {
                slot.Position = slot.Old is not null && offsetsListed ? SharedBlocks.Keep(pos, slot.Old.Offset, layout.Alignment) : layout.Align(pos);
                pos = slot.Position + slot.Size;
            }
            long contentEnd = layout.Align(pos);
            pos = contentEnd;
            foreach (var t in after)
            {
                t.Offset = layout.Align(pos);
                pos = t.Offset + t.Length;
            }

            var toc = tables.FirstOrDefault(t => t.OffsetColumn == "TocOffset");
            fill(contentOffset, toc?.Offset ?? contentOffset);
            header.SetInteger(0, "ContentOffset", contentOffset);
            header.SetInteger(0, "ContentSize", contentEnd - contentOffset);
            bool settled = true;
            foreach (var t in tables)
            {
                if (t.Table is not null)
                {
                    t.Bytes = t.Packet!.Write(t.Table);
                    settled &= t.Bytes.Length == t.Length;
                    t.Length = t.Bytes.Length;
                }
                header.SetInteger(0, t.OffsetColumn, t.Offset);
                // Padded: up to the next aligned offset, where the layout puts what follows; the file's last table has none.
                bool last = after.Count > 0 && t == after[^1];
                header.SetInteger(0, t.SizeColumn, t.SizeFieldPadded && !last ? layout.Align(t.Offset + t.Length) - t.Offset : t.Length);
            }
            var newHeader = original.Header.Write(header);
            settled &= newHeader.Length == headerBytes.Length;
            headerBytes = newHeader;
            if (settled)
                return Assemble(original, headerBytes, front, before, content, contentEnd, after, pool);
        }
    }

    private static VirtualFile Assemble(CpkIndex original, byte[] headerBytes, long front, List<CpkTablePlan> before,
        List<CpkSlot> content, long contentEnd, List<CpkTablePlan> after, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool, expectedSegments: 2 * content.Count + 16);
        builder.AppendBytes(headerBytes);
        if (headerBytes.Length == original.Header.Length && headerBytes.Length <= front && front <= original.Length)
            original.AppendOriginal(builder, headerBytes.Length, front - headerBytes.Length); // padding and "(c)CRI", as found
        foreach (var t in before)
            AppendTable(original, builder, t);

        ArchiveEntry? previous = null; // the original entry just appended, while a run of unchanged entries goes on
        foreach (var slot in content)
        {
            long gap = slot.Position - builder.Position;
            if (previous is not null && slot.Old is not null && slot.Input is null && slot.Old.Offset - (previous.Offset + previous.Size) == gap)
                original.AppendOriginal(builder, previous.Offset + previous.Size, gap); // the original's own padding: the run stays one slice
            else
                builder.AppendZeros(gap);
            if (slot.Input is not null)
            {
                slot.Input.AppendTo(builder);
                previous = null;
            }
            else
            {
                original.AppendOriginal(builder, slot.Old!.Offset, slot.Old.Size);
                previous = slot.Old;
            }
        }
        builder.AppendZeros(contentEnd - builder.Position);
        foreach (var t in after)
            AppendTable(original, builder, t);
        return builder.Build();
    }

    private static void AppendTable(CpkIndex original, VirtualFileBuilder builder, CpkTablePlan t)
    {
        builder.AppendZeros(t.Offset - builder.Position);
        if (t.Bytes is not null)
            builder.AppendBytes(t.Bytes);
        else
            original.AppendOriginal(builder, t.Raw!.Offset, t.Raw.Length);
    }
}
