using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text.Json;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// The independent check of what the product built from accepted ACB mutants (<see cref="AcbIndependentReader"/>, all
/// files in one Python start-up): the unchanged build holds every Header value of the mutant; the patched build holds
/// every value but those it should change. Those are checked too: an in-memory AWB (AwbFile) re-read by the independent
/// AWB reader and compared entry by entry (<see cref="IndependentCheck"/>); a streamed AWB's header copy is the followed
/// AWB's first bytes (as many past its table as the mutant's copy held) and its hash, where the mutant's is not zeros,
/// MD5 of that AWB.
/// </summary>
internal static class AcbFuzzCheck
{
    private const string HeaderColumn = "StreamAwbAfs2Header", HashColumn = "StreamAwbHash", MemoryColumn = "AwbFile";

    /// <summary>Adds what is wrong to <paramref name="findings"/>; returns how many mutants the reader could read and how many AWB entries were compared.</summary>
    public static (int Mutants, int Entries) Compare(List<(string Case, BuiltMutant Built, string[] Paths)> cases, List<string> findings)
    {
        var reads = AcbIndependentReader.TryReadMany(cases.SelectMany(c => c.Paths).ToArray());
        var awbs = ReadMemoryAwbs(cases, reads);
        int readable = 0, entries = 0;
        for (int k = 0; k < cases.Count; k++)
        {
            var (name, built, _) = cases[k];
            if (reads[3 * k].Acb is not { } mutant)
                continue; // the reader cannot read the mutant: nothing to compare with
            readable++;
            if (reads[3 * k + 1].Acb is not { } unchanged || reads[3 * k + 2].Acb is not { } patched)
            {
                findings.Add($"{name}: the independent reader reads the mutant but rejects a build: {reads[3 * k + 1].Rejection ?? reads[3 * k + 2].Rejection}");
                continue;
            }
            var problems = new List<string>();
            problems.AddRange(SameValues("unchanged", mutant, unchanged, []));
            var changed = new List<string>();
            if (built.Added is not null)
                changed.Add(MemoryColumn);
            if (built.FollowedAwb is not null)
                changed.AddRange([HeaderColumn, HashColumn]);
            problems.AddRange(SameValues("patched", mutant, patched, changed));
            if (built.Added is not null && awbs.TryGetValue(k, out var views))
            {
                problems.AddRange(IndependentCheck.Compare("awb", built, views[0], views[1], views[2]).Select(p => "in-memory AWB: " + p));
                entries += views[0]?.Entries.Count ?? 0;
            }
            if (built.FollowedAwb is { } awb)
                problems.AddRange(Follows(mutant, patched, awb));
            findings.AddRange(problems.Select(p => $"{name}: {p}"));
        }
        return (readable, entries);
    }

    // Every Header value outside `changed` as the mutant has it (the reader's JSON of it, data by its sha256 and hex).
    private static IEnumerable<string> SameValues(string build, AcbIndependentReader.Acb mutant, AcbIndependentReader.Acb view, IReadOnlyCollection<string> changed)
    {
        var (before, after) = (mutant.Header, view.Header);
        if (after.Name != before.Name || !after.Columns.SequenceEqual(before.Columns) || after.Rows.Length != before.Rows.Length)
        {
            yield return $"{build} build: the Header table's name, columns or row count differ from the mutant's";
            yield break;
        }
        foreach (var column in before.Columns.Select(c => c.Name).Where(c => !changed.Contains(c)))
            if (after.Rows[0][column].GetRawText() != before.Rows[0][column].GetRawText())
                yield return $"{build} build: column {column} differs from the mutant's";
    }

    // The streamed AWB's row (picked as AcbFile documents: by the AWB's name "bgm" in the hash table, else the only one).
    private static IEnumerable<string> Follows(AcbIndependentReader.Acb mutant, AcbIndependentReader.Acb patched, byte[] awb)
    {
        foreach (var (column, valueColumn) in new[] { (HeaderColumn, "Header"), (HashColumn, "Hash") })
        {
            if (!mutant.Nested.TryGetValue(column, out var before))
                continue;
            if (!patched.Nested.TryGetValue(column, out var after) || after.Name != before.Name || !after.Columns.SequenceEqual(before.Columns)
                || after.Rows.Length != before.Rows.Length)
                yield return $"patched build: the nested {column} table's name, columns or row count differ from the mutant's";
            else if (before.Columns.Select(c => c.Name).Where(c => c != valueColumn).FirstOrDefault(c =>
                         before.Rows.Zip(after.Rows).Any(rows => rows.First[c].GetRawText() != rows.Second[c].GetRawText())) is { } other)
                yield return $"patched build: the nested {column} table's {other} column differs from the mutant's";
        }
        var oldCopies = Values(mutant, HeaderColumn, "Header");
        var newCopies = Values(patched, HeaderColumn, "Header");
        if (oldCopies is null || newCopies is null || oldCopies.Length != newCopies.Length)
        {
            yield return "patched build: the header copies cannot be compared with the mutant's (missing, or a different row count)";
            yield break;
        }
        int row = oldCopies.Length == 1 ? 0 : mutant.Nested.TryGetValue(HashColumn, out var names) && names.Columns.Any(c => c.Name == "Name")
            ? Array.FindIndex(names.Rows, r => r["Name"].ValueKind == JsonValueKind.String && string.Equals(r["Name"].GetString(), "bgm", StringComparison.OrdinalIgnoreCase))
            : -1;
        for (int r = 0; r < oldCopies.Length; r++)
        {
            var expected = r != row || oldCopies[r] is null ? oldCopies[r] : ExpectedCopy(oldCopies[r]!, awb);
            if (expected is not null && (newCopies[r] is null || !newCopies[r]!.SequenceEqual(expected)))
                yield return $"patched build: header copy row {r} is not {(r == row ? "the followed AWB's first bytes" : "the mutant's")}";
        }
        var oldHashes = Values(mutant, HashColumn, "Hash");
        var newHashes = Values(patched, HashColumn, "Hash");
        if (oldHashes is null)
            yield break;
        if (newHashes is null || newHashes.Length != oldHashes.Length)
        {
            yield return "patched build: the hash column lost rows or could not be read";
            yield break;
        }
        for (int r = 0; r < oldHashes.Length; r++)
        {
            bool followsHere = r == row && oldHashes[r] is { } h && h.Any(b => b != 0);
            var expected = followsHere ? MD5.HashData(awb) : oldHashes[r];
            if (expected is not null && (newHashes[r] is null || !newHashes[r]!.SequenceEqual(expected)))
                yield return $"patched build: hash row {r} is not {(followsHere ? "MD5 of the followed AWB" : "the mutant's")}";
        }
    }

    // The copy as long past the AWB's id and position table as the mutant's was (tables computed here from the AFS2 fields).
    private static byte[] ExpectedCopy(byte[] oldCopy, byte[] awb)
    {
        long length = Math.Min(awb.Length, TableEnd(awb) + oldCopy.Length - TableEnd(oldCopy));
        return awb[..(int)length];
    }

    private static long TableEnd(byte[] afs2) => 0x10 + BinaryPrimitives.ReadUInt32LittleEndian(afs2.AsSpan(8)) * (long)afs2[6]
        + (BinaryPrimitives.ReadUInt32LittleEndian(afs2.AsSpan(8)) + 1L) * afs2[5];

    // A column's values per streamed AWB: the nested table's value column, or the raw value as one row; null where absent
    // (an entry is null where the reader gave no hex: a value over 64 KiB).
    private static byte[]?[]? Values(AcbIndependentReader.Acb acb, string column, string valueColumn)
    {
        if (acb.Nested.TryGetValue(column, out var nested))
            return nested.Columns.Any(c => c.Name == valueColumn) ? nested.Rows.Select(r => Bytes(r[valueColumn])).ToArray() : null;
        return acb.Header.Rows[0].TryGetValue(column, out var raw) && raw.ValueKind == JsonValueKind.Object ? [Bytes(raw)] : null;
    }

    private static byte[]? Bytes(JsonElement data) =>
        data.ValueKind == JsonValueKind.Object && data.GetProperty("hex").ValueKind == JsonValueKind.String ? AcbFollowCheck.Hex(data) : null;

    // The AwbFile of each patched case's three files, written out and read by the independent AWB reader in one go.
    private static Dictionary<int, IndependentView?[]> ReadMemoryAwbs(List<(string Case, BuiltMutant Built, string[] Paths)> cases, AcbIndependentReader.Result[] reads)
    {
        using var dir = new TempDirectory("fuzz-acb-awb");
        var paths = new List<string>();
        var owners = new List<int>();
        for (int k = 0; k < cases.Count; k++)
        {
            if (cases[k].Built.Added is null)
                continue;
            var blobs = Enumerable.Range(0, 3).Select(i => reads[3 * k + i].Acb is { } a && a.Header.Rows[0].TryGetValue(MemoryColumn, out var v) ? Bytes(v) : null).ToArray();
            if (blobs.Any(b => b is null))
                continue;
            owners.Add(k);
            paths.AddRange(blobs.Select((b, i) => dir.Write($"case{k}.{i}.awb", b!)));
        }
        var views = IndependentCheck.ReadMany("awb", "", paths);
        return owners.Select((k, i) => (k, i)).ToDictionary(p => p.k, p => views[(3 * p.i)..(3 * p.i + 3)]);
    }
}
