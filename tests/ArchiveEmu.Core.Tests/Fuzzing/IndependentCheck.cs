using System.Formats.Tar;
using System.IO.Compression;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// One file as a reader that shares no code with the product sees it: entry key (#index, or name) → sha256 of its
/// bytes, null for an entry it lists but cannot read (a failed read, a name listed twice). <see cref="Complete"/> is
/// false when the reader stopped part-way (tar), so entries past that point are unknown.
/// </summary>
internal sealed record IndependentView(Dictionary<string, string?> Entries, bool Complete);

/// <summary>
/// Compares what the product built from an accepted mutant with what an independent reader sees in the mutant itself:
/// the Python readers in TestSupport for AFS, AWB, IMG and PAK; TxdIndependentReader for TXD; the BCL's ZipArchive and TarReader for ZIP and tar.
/// Every entry the reader can read in the mutant must read the same in the unchanged build and in the patched one
/// (except the replaced entry, which must be <see cref="FuzzCase.Replacement"/>, as must the added one). Entries the
/// reader cannot read in the mutant are skipped; a mutant it rejects whole is not checked.
/// </summary>
internal static class IndependentCheck
{
    private const int ImgSector = 2048;

    /// <summary>Reads every file in one go (one Python start-up per call for the Python readers); null where the reader rejects a file.</summary>
    public static IndependentView?[] ReadMany(string format, string pakVariant, IReadOnlyList<string> paths) => format switch
    {
        "afs" => AfsIndependentReader.TryReadMany(paths).Select(es => es is null ? null
            : View(es.Select(e => ($"#{e.Index}", (string?)e.Sha256)))).ToArray(),
        "awb" => AwbIndependentReader.TryReadMany(paths).Select(a => a is null ? null
            : View(a.Entries.Select((e, i) => ($"#{i}", (string?)e.Sha256)))).ToArray(),
        "cpk" => CpkIndependentReader.TryReadMany(paths).Select(r => r.Archive is not { Kind: "named" } a ? null
            : View(a.Entries.Select(e => (e.Path, (string?)e.ContentSha256)))).ToArray(),
        "img" => ImgIndependentReader.TryReadMany(paths).Select(es => es is null ? null
            : View(es.Select(e => (e.Name.ToLowerInvariant(), (string?)e.Sha256)))).ToArray(),
        "pak" => PakIndependentReader.TryReadMany(paths, pakVariant).Select(ms => ms is null ? null
            : View(ms.Select(m => (m.Name, (string?)m.Sha256)))).ToArray(),
        "txd" => paths.Select(ReadTxd).ToArray(),
        "spd" => paths.Select(ReadSpd).ToArray(),
        "spr" => paths.Select(ReadSpr).ToArray(),
        "zip" => paths.Select(ReadZip).ToArray(),
        "tar" => paths.Select(ReadTar).ToArray(),
        _ => throw new ArgumentOutOfRangeException(nameof(format), format, "no independent reader"),
    };

    /// <summary>What is wrong with the two builds of one mutant, or nothing; null views are files the reader rejected.</summary>
    public static IEnumerable<string> Compare(string format, BuiltMutant built, IndependentView? mutant, IndependentView? unchanged, IndependentView? patched)
    {
        if (mutant is null)
            yield break; // the reader cannot read the mutant: nothing to compare with
        if (unchanged is null || patched is null)
        {
            yield return $"the independent reader reads the mutant but rejects the {(unchanged is null ? "unchanged" : "patched")} build";
            yield break;
        }
        foreach (var problem in Differences("unchanged", mutant, unchanged, replaced: null, added: null, ""))
            yield return problem;
        string replacement = Sha(format switch
        {
            "img" => [.. FuzzCase.Replacement, .. new byte[ImgSector - FuzzCase.Replacement.Length]],
            "txd" => FuzzCase.DdsReplacement[DdsTestWriter.HeaderSize..], // a texture's levels, which fill the DDS after its header
            "spd" => FuzzCase.SpdReplacement,
            "spr" => FuzzCase.SprReplacement,
            _ => FuzzCase.Replacement,
        });
        foreach (var problem in Differences("patched", mutant, patched, built.Replaced is { } r ? Key(format, r) : null, built.Added is { } a ? Key(format, a) : null, replacement))
            yield return problem;
    }

    // Where the reader stopped part-way through the build, an entry it did not reach is unknown, not missing (the BCL's
    // TarReader stops at a pax record it dislikes, in the mutant and in the build alike).
    private static IEnumerable<string> Differences(string build, IndependentView mutant, IndependentView view, string? replaced, string? added, string replacement)
    {
        if (mutant.Complete && !view.Complete)
            yield return $"{build} build: the independent reader stops part-way through it, but reads the whole mutant";
        foreach (var (key, sha) in mutant.Entries)
        {
            if (sha is null || key == replaced)
                continue;
            if (!view.Entries.TryGetValue(key, out var got))
            {
                if (view.Complete)
                    yield return $"{build} build: entry {key} is missing";
            }
            else if (got != sha)
                yield return $"{build} build: entry {key} reads {(got is null ? "as unreadable" : "different bytes")} (sha256 {got?[..12]}, the mutant's {sha[..12]})";
        }
        foreach (var key in new[] { replaced, added }.OfType<string>())
        {
            if (!view.Entries.TryGetValue(key, out var got) ? view.Complete : got != replacement)
                yield return $"{build} build: entry {key} is {(got is null ? "missing or unreadable" : "not the replacement")}";
        }
        if (mutant.Complete && view.Complete)
        {
            foreach (var key in view.Entries.Keys.Where(k => !mutant.Entries.ContainsKey(k) && k != added))
                yield return $"{build} build: entry {key} is not in the mutant";
        }
    }

    private static string Key(string format, EntryKey key) =>
        key.IsIndex ? $"#{key.Index}" : format is "img" or "txd" ? key.Name!.ToLowerInvariant() : key.Name!;

    private static IndependentView View(IEnumerable<(string Key, string? Sha)> entries, bool complete = true)
    {
        var result = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var (key, sha) in entries)
            result[key] = result.ContainsKey(key) ? null : sha; // a name listed twice: which one a reader means is a guess
        return new IndependentView(result, complete);
    }

    // Names without the UTF-8 flag are IBM 437 (APPNOTE 4.4.4); the BCL's default (UTF-8 on Linux) would turn the
    // mutants' high bytes into U+FFFD, and the names would no longer be the ones a ZIP reader means.
    private static readonly Lazy<System.Text.Encoding> Cp437 = new(() =>
    {
        System.Text.Encoding.RegisterProvider(System.Text.CodePagesEncodingProvider.Instance);
        return System.Text.Encoding.GetEncoding(437);
    });

    // The textures by entry name; sprites are checked by the SPD tests (a patch moves some of them on purpose).
    private static IndependentView? ReadSpd(string path)
    {
        try
        {
            var spd = ArchiveEmu.TestSupport.Textures.SpdIndependentReader.Read(File.ReadAllBytes(path), path);
            return View(spd.Textures.Select(t => ($"tex_{t.Id}.dds", (string?)Sha(t.Dds))));
        }
        catch (InvalidDataException)
        {
            return null;
        }
    }

    private static IndependentView? ReadSpr(string path)
    {
        try
        {
            var spr = ArchiveEmu.TestSupport.Textures.SprIndependentReader.Read(File.ReadAllBytes(path), path);
            return View(spr.Textures.Select(t => ($"tex_{t.Index}.tmx", (string?)Sha(t.Tmx.Bytes))));
        }
        catch (InvalidDataException)
        {
            return null;
        }
    }

    private static IndependentView? ReadZip(string path)
    {
        var entries = new List<(string, string?)>();
        try
        {
            using var zip = new ZipArchive(File.OpenRead(path), ZipArchiveMode.Read, leaveOpen: false, Cp437.Value);
            foreach (var entry in zip.Entries)
                entries.Add((entry.FullName, entry.FullName.EndsWith('/') ? Sha([]) : TryRead(entry.Open, entry.Length)));
        }
        catch (Exception e) when (e is InvalidDataException or IOException or ArgumentException or NotSupportedException)
        {
            return null;
        }
        return View(entries);
    }

    // A texture is its name (as TXD lookups ignore case) and the bytes of its levels, one after another; the header
    // fields a replacement keeps are checked by the TXD tests.
    private static IndependentView? ReadTxd(string path)
    {
        try
        {
            var txd = TxdIndependentReader.Read(File.ReadAllBytes(path), path);
            return View(txd.Textures.Select(t => (t.Name.ToLowerInvariant() + ".dds", (string?)Sha(t.Levels.SelectMany(l => l).ToArray()))));
        }
        catch (Exception e) when (e is InvalidDataException or ArgumentException)
        {
            return null;
        }
    }

    private static IndependentView? ReadTar(string path)
    {
        var entries = new List<(string, string?)>();
        bool complete = true;
        try
        {
            using var stream = File.OpenRead(path);
            using var reader = new TarReader(stream);
            while (reader.GetNextEntry() is { } entry)
            {
                if (entry.EntryType is TarEntryType.RegularFile or TarEntryType.V7RegularFile)
                    entries.Add((entry.Name, entry.DataStream is null ? Sha([]) : TryRead(() => entry.DataStream, stream.Length)));
            }
        }
        catch (Exception e) when (e is InvalidDataException or IOException or FormatException or ArgumentException or OverflowException)
        {
            if (entries.Count == 0)
                return null;
            complete = false; // the reader stopped here: what follows is unknown to it
        }
        return View(entries, complete);
    }

    // An entry's bytes (capped, so a hostile declared size cannot balloon) or null where reading them fails.
    private static string? TryRead(Func<Stream> open, long declared)
    {
        if (declared > 64 << 20)
            return null;
        try
        {
            using var data = open();
            var copy = new MemoryStream();
            data.CopyTo(copy);
            return Sha(copy.ToArray());
        }
        catch (Exception e) when (e is InvalidDataException or IOException or NotSupportedException)
        {
            return null;
        }
    }

    private static string Sha(byte[] bytes) => AfsIndependentReader.Sha256(bytes);
}
