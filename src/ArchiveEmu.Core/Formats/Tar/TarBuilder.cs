using System.Text;
using ArchiveEmu.Core.VirtualFiles;
using static ArchiveEmu.Core.Formats.Tar.TarHeader;

namespace ArchiveEmu.Core.Formats.Tar;

/// <summary>
/// Lays out an emulated tar archive: unchanged members are slices of the original (extension
/// records, header, data and padding verbatim); a replaced member gets its header with the new size
/// and checksum (and regenerated pax/long-name records); added members get new ustar headers, with a
/// pax record for names ustar cannot hold; deleted members are left out; two zero blocks end it.
/// </summary>
internal static class TarBuilder
{
    private static readonly NameRule Names = new("tar", StringComparer.Ordinal);

    public static EmulatedArchive Build(TarIndex original, ArchivePatch patch, FileHandlePool? pool)
    {
        var builder = new VirtualFileBuilder(pool);
        // "dir/" and "dir" are one path: a mod file named like a directory must not slip in beside it.
        var names = original.Members.Select(m => m.Name.TrimEnd('/')).ToArray();
        var (changeOf, added) = NamedPatch.Match(original, names, NamedPatch.ByName(original, patch, Names), Names, checkMatched: (i, change) =>
        {
            var member = original.Members[i];
            if (!member.IsRegularFile)
                throw new ArchiveFormatException(original.Source.Name, member.HeaderOffset, $"'{member.Name}' (from {change.Origin}) is not a regular file in the tar; it cannot be replaced or deleted");
        });
        var entries = new List<EmulatedEntry>();
        var deleted = new List<EmulatedEntry>();
        using var reader = ArchiveFileReader.Open(original.Source);

        for (int i = 0; i < original.Members.Count; i++)
        {
            var member = original.Members[i];
            var change = changeOf[i];
            if (change is null)
            {
                original.AppendOriginal(builder, member.RecordStart, member.RecordEnd - member.RecordStart);
                entries.Add(new EmulatedEntry(entries.Count, member.Name, member.Size, EntryState.Original, EmulatedEntry.OriginalOrigin));
                continue;
            }
            if (change.IsDelete)
            {
                deleted.Add(new EmulatedEntry(i, member.Name, 0, EntryState.Deleted, change.Origin));
                continue;
            }
            var header = reader.ReadBytes(member.HeaderOffset, BlockSize, "tar header");
            AppendReplaced(builder, member, header, change.Input!);
            entries.Add(new EmulatedEntry(entries.Count, member.Name, change.Input!.Length, EntryState.Replaced, change.Origin, change.Input));
        }

        foreach (var change in added)
        {
            AppendNew(builder, change.Key.Name!, change.Input!);
            entries.Add(new EmulatedEntry(entries.Count, change.Key.Name, change.Input!.Length, EntryState.Added, change.Origin, change.Input));
        }

        builder.AppendZeros(2 * BlockSize);
        return new EmulatedArchive(original, builder.Build(), entries.Concat(deleted).ToArray());
    }

    private static void AppendReplaced(VirtualFileBuilder builder, TarMember member, byte[] header, EntryInput input)
    {
        var pax = member.Pax?.Where(r => r.Key != "size").ToList() ?? [];
        if (input.Length > MaxOctalSize)
            pax.Add(new("size", input.Length.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        if (member.HasGnuLongName)
            AppendExtension(builder, (byte)'L', "././@LongLink", [.. Encoding.UTF8.GetBytes(member.Name), 0]);
        if (pax.Count > 0)
            AppendExtension(builder, (byte)'x', PaxHeaderName(member.Name), PaxRecords.Write(pax));

        WriteSize(header, input.Length);
        WriteChecksum(header);
        builder.AppendBytes(header);
        input.AppendTo(builder);
        builder.AppendPadding(BlockSize);
    }

    private static void AppendNew(VirtualFileBuilder builder, string name, EntryInput input)
    {
        var header = NewHeader((byte)'0', input.Length, input.Path is { } p ? File.GetLastWriteTimeUtc(p) : DateTime.UnixEpoch);
        var pax = new List<KeyValuePair<string, string>>();
        if (!TryWriteUstarName(header, name))
        {
            pax.Add(new("path", name));
            WriteTruncated(header.AsSpan(0, 100), name);
        }
        if (input.Length > MaxOctalSize)
            pax.Add(new("size", input.Length.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        if (pax.Count > 0)
            AppendExtension(builder, (byte)'x', PaxHeaderName(name), PaxRecords.Write(pax));

        WriteChecksum(header);
        builder.AppendBytes(header);
        input.AppendTo(builder);
        builder.AppendPadding(BlockSize);
    }

    private static void AppendExtension(VirtualFileBuilder builder, byte type, string name, byte[] data)
    {
        var header = NewHeader(type, data.Length, DateTime.UnixEpoch);
        WriteTruncated(header.AsSpan(0, 100), name);
        WriteChecksum(header);
        builder.AppendBytes(header);
        builder.AppendBytes(data);
        builder.AppendPadding(BlockSize);
    }

    private static byte[] NewHeader(byte type, long size, DateTime mtimeUtc)
    {
        var header = new byte[BlockSize];
        WriteOctal(header.AsSpan(100, 8), Convert.ToInt32("644", 8));
        WriteOctal(header.AsSpan(108, 8), 0);
        WriteOctal(header.AsSpan(116, 8), 0);
        WriteSize(header, size);
        WriteOctal(header.AsSpan(136, 12), Math.Max(0, (long)(mtimeUtc - DateTime.UnixEpoch).TotalSeconds));
        header[TypeField] = type;
        "ustar\0"u8.CopyTo(header.AsSpan(MagicField));
        "00"u8.CopyTo(header.AsSpan(263));
        return header;
    }

    /// <summary>Puts a name in ustar's name[100] (and prefix[155], split at a '/'); false if it cannot fit.</summary>
    private static bool TryWriteUstarName(byte[] header, string name)
    {
        var bytes = Encoding.UTF8.GetBytes(name);
        if (bytes.Length <= 100)
        {
            bytes.CopyTo(header, 0);
            return true;
        }
        for (int slash = Array.LastIndexOf(bytes, (byte)'/'); slash > 0; slash = Array.LastIndexOf(bytes, (byte)'/', slash - 1))
        {
            if (slash <= 155 && bytes.Length - slash - 1 <= 100 && bytes.Length - slash - 1 > 0)
            {
                bytes.AsSpan(0, slash).CopyTo(header.AsSpan(345));
                bytes.AsSpan(slash + 1).CopyTo(header);
                return true;
            }
        }
        return false;
    }

    private static void WriteTruncated(Span<byte> field, string text)
    {
        var bytes = Encoding.UTF8.GetBytes(text);
        bytes.AsSpan(0, Math.Min(bytes.Length, field.Length)).CopyTo(field);
    }

    private static string PaxHeaderName(string name) => "PaxHeader/" + Path.GetFileName(name.TrimEnd('/'));
}
