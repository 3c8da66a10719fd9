using System.Buffers.Binary;
using System.IO.Hashing;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.Tests.Fuzzing;

namespace ArchiveEmu.Core.Tests.MergedCache;

/// <summary>
/// Mutation fuzzing of the cache's own files (issue 17): a damaged cache file is input like any other. A real merged
/// cache (six formats, LZ4) is built once; each case puts it back, damages one part with <see cref="Mutator"/> and
/// serves one archive again — the merged file, the archive from its stored layout, then again after a build stored
/// what was dropped. Every byte is compared with emulation without a cache; any exception is a finding.
/// Two ways to damage: in place (the part's hash or the index checksum should catch it: a warning and a drop), and
/// re-sealed (the mutated part gets a matching hash or checksum, so the parser itself meets the damage).
/// </summary>
public sealed class CacheFuzzTests
{
    private const int DefaultCases = 160;

    private static int Cases => int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_FUZZ_CASES"), out int n) && n > 0 ? n : DefaultCases;

    /// <summary>What a case damages: the index, the pack header, or one entry's layout, chunk table or chunks.</summary>
    public static readonly string[] Targets =
        ["index", "index-resealed", "pack-header", "layout", "layout-resealed", "table", "table-resealed", "chunks"];

    private CacheTestGame _game = null!;
    private Dictionary<string, byte[]> _expected = null!;
    private Dictionary<string, byte[]> _pristine = null!;

    [OneTimeSetUp]
    public void BuildTheCache()
    {
        _game = new CacheTestGame(entries: 12, entrySize: 6_000);
        _expected = CacheTestGame.Archives.ToDictionary(a => a, _game.Emulated);
        _game.BuildAll(_game.Cache(), merge: true, ChunkCompression.Lz4);
        _pristine = Directory.EnumerateFiles(_game.CacheFolder, "*", SearchOption.AllDirectories)
            .Where(f => f.EndsWith("index.bin", StringComparison.Ordinal) || f.EndsWith(".pack", StringComparison.Ordinal))
            .ToDictionary(f => f, File.ReadAllBytes);
        Assert.That(_pristine.Keys.Count(f => f.EndsWith(".pack", StringComparison.Ordinal)), Is.EqualTo(1), "one pack holds every entry");
    }

    [OneTimeTearDown]
    public void DeleteGame() => _game?.Dispose();

    [Test]
    public void DamagedCacheFiles_AreDroppedWithAWarningOrServeTheRightBytes_NeverACrashOrAWrongByte()
    {
        var findings = new List<string>();
        var outcomes = new Dictionary<string, int>();
        for (int i = 0; i < Cases; i++)
        {
            var random = new Random(FormatFuzzTests.CaseSeed("cache", i));
            string target = Targets[random.Next(Targets.Length)], archive = CacheTestGame.Archives[random.Next(CacheTestGame.Archives.Length)];
            Restore();
            var cache = _game.Cache();
            // A route names its game file with the platform's separator (a backslash on Windows).
            var entry = cache.ReadIndex().Entries.Single(e => e.Route.Replace('\\', '/').EndsWith(archive, StringComparison.Ordinal));
            var (kind, changed) = Damage(cache, target, entry, random.Next());
            _game.Warnings.Clear();
            var (outcome, finding) = Serve(cache, archive, forged: target == "layout-resealed");
            if (finding is null && outcome == "served" && changed && target is "index" or "layout" or "table" or "chunks")
                finding = "the damage went unnoticed (no warning), though every damaged byte was read";
            string label = $"case {i} ({kind} of {target}, {archive})";
            if (finding is not null)
                findings.Add($"{label}: {finding}");
            outcomes[$"{target} {outcome}"] = outcomes.GetValueOrDefault($"{target} {outcome}") + 1;
        }
        TestContext.Out.WriteLine($"cache fuzz: {Cases} cases, {findings.Count} findings; " +
                                  string.Join(", ", outcomes.OrderBy(o => o.Key, StringComparer.Ordinal).Select(o => $"{o.Key} {o.Value}")));
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
    }

    // Serves the archive three ways and compares every byte; the outcome says whether the damage was noticed. A forged
    // layout (re-sealed: its hash matches) is trusted by design, so from one a wrong byte or an IOException naming a file
    // is counted, not a finding; a crash, a hang or a wrong length (the entry says the length) still is.
    private (string Outcome, string? Finding) Serve(MergedFileCache cache, string archive, bool forged)
    {
        var expected = _expected[archive];
        (string? Problem, bool EvenIfForged) result = default;
        var thread = new Thread(() => result = Guarded(cache, archive, expected)) { IsBackground = true };
        thread.Start();
        if (!thread.Join(TimeSpan.FromSeconds(20)))
            return ("hang", "still running after 20 s");
        if (result.Problem is not null)
            return forged && !result.EvenIfForged ? ("trusted-forged-layout", null) : ("finding", result.Problem);
        return (_game.Warnings.Count > 0 ? "dropped-with-warning" : "served", null);
    }

    private (string? Problem, bool EvenIfForged) Guarded(MergedFileCache cache, string archive, byte[] expected)
    {
        string step = "open the merged file";
        try
        {
            var game = _game.Game(cache);
            using (var file = game.OpenFile(archive))
            {
                if (Differs(CacheTestGame.ReadAll(file), expected) is { } wrong)
                    return ($"{step}: {wrong}", wrong.Contains("bytes served", StringComparison.Ordinal));
            }
            step = "open the archive (stored layout)";
            using (var opened = game.OpenArchive(archive))
            {
                if (Differs(CacheTestGame.ReadAll(opened.File), expected) is { } wrong)
                    return ($"{step}: {wrong}", wrong.Contains("bytes served", StringComparison.Ordinal));
            }
            step = "build again (stores what was dropped), then open";
            var route = game.Plan.FindArchive(archive)!;
            using (var built = game.Build(route))
                cache.Store(game.KeyOf(route), built, merge: true, ChunkCompression.Lz4);
            using (var file = game.OpenFile(archive))
            {
                if (Differs(CacheTestGame.ReadAll(file), expected) is { } wrong)
                    return ($"{step}: {wrong}", wrong.Contains("bytes served", StringComparison.Ordinal));
                if (!file.Segments[0].Source.Describe().StartsWith("merged cache", StringComparison.Ordinal))
                    return ($"{step}: served by {file.Segments[0].Source.Describe()}, not from the cache", false);
            }
            return (null, false);
        }
        // Names the file it could not read: first on Linux; on Windows a forged path with a character NTFS refuses is
        // .NET's "Invalid name. : 'PATH'".
        catch (IOException e) when (e.Message.Contains(Path.GetTempPath(), StringComparison.Ordinal))
        {
            return ($"{step}: {e.GetType().Name}: {e.Message}", false);
        }
        catch (Exception e)
        {
            return ($"{step}: {e.GetType().Name}: {e.Message} [{e.StackTrace?.Split('\n').FirstOrDefault()?.Trim()}]", true);
        }
    }

    private static string? Differs(byte[] got, byte[] expected)
    {
        if (got.Length != expected.Length)
            return $"{got.Length} bytes served, emulation gives {expected.Length}";
        int at = got.AsSpan().CommonPrefixLength(expected);
        return at == got.Length ? null : $"wrong byte at {at}";
    }

    private void Restore()
    {
        if (Directory.Exists(_game.CacheFolder))
            Directory.Delete(_game.CacheFolder, recursive: true);
        foreach (var (path, bytes) in _pristine)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllBytes(path, bytes);
        }
    }

    // Applies one mutation to the target; returns the mutation's kind and whether it changed any byte.
    private (string Kind, bool Changed) Damage(MergedFileCache cache, string target, CacheEntry entry, int seed)
    {
        var indexPath = Path.Combine(_game.CacheFolder, "index.bin");
        var pack = cache.PathOf(entry.Layout);
        switch (target)
        {
            case "index":
            {
                var before = File.ReadAllBytes(indexPath);
                var (kind, bytes) = Mutator.Mutate(before, seed);
                File.WriteAllBytes(indexPath, bytes);
                return (kind, !bytes.AsSpan().SequenceEqual(before));
            }
            case "index-resealed":
            {
                var bytes = File.ReadAllBytes(indexPath);
                var (kind, payload) = Mutator.Mutate(bytes[24..^8], seed);
                File.WriteAllBytes(indexPath, Seal(bytes[..16], payload));
                return (kind, true);
            }
            case "pack-header":
                return InPlace(pack, 0, CacheFormat.PackHeaderSize, seed);
            case "layout":
                return InPlace(pack, entry.Layout.Offset, entry.Layout.Length, seed);
            case "table":
                return InPlace(pack, entry.Merged!.Table.Offset, entry.Merged.Table.Length, seed);
            case "chunks":
                return InPlace(pack, entry.Merged!.Chunks.Offset, entry.Merged.Chunks.Length, seed);
            case "layout-resealed":
            case "table-resealed":
            {
                bool layout = target == "layout-resealed";
                var extent = layout ? entry.Layout : entry.Merged!.Table;
                var (kind, blob) = Mutator.Mutate(Read(pack, extent.Offset, extent.Length), seed);
                var moved = AppendBlob(pack, blob);
                var changed = layout ? entry with { Layout = moved } : entry with { Merged = entry.Merged! with { Table = moved } };
                var index = cache.ReadIndex();
                File.WriteAllBytes(indexPath, new CacheIndex(index.Entries.Select(e => e.Key == entry.Key ? changed : e)).Serialize());
                return (kind, true);
            }
            default:
                throw new ArgumentOutOfRangeException(nameof(target), target, "unknown target");
        }
    }

    // Mutates [offset, offset + length) where it lies: a shorter mutant cuts the pack there, a longer one keeps its first length bytes.
    private static (string Kind, bool Changed) InPlace(string pack, long offset, long length, int seed)
    {
        var before = Read(pack, offset, length);
        var (kind, bytes) = Mutator.Mutate(before, seed);
        using var stream = new FileStream(pack, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        stream.Write(bytes, 0, (int)Math.Min(bytes.Length, length));
        if (bytes.Length < length)
            stream.SetLength(offset + bytes.Length);
        return (kind, bytes.Length < length || !bytes.AsSpan(0, (int)length).SequenceEqual(before));
    }

    private static byte[] Read(string path, long offset, long length)
    {
        using var stream = File.OpenRead(path);
        var bytes = new byte[length];
        stream.Position = offset;
        stream.ReadExactly(bytes);
        return bytes;
    }

    private static CacheExtent AppendBlob(string pack, byte[] blob)
    {
        using var stream = new FileStream(pack, FileMode.Append, FileAccess.Write);
        long offset = stream.Position;
        stream.Write(blob);
        return new CacheExtent(Path.GetFileName(pack), offset, blob.Length, Convert.ToHexStringLower(XxHash3.Hash(blob)));
    }

    // The index envelope around a (mutated) payload: its header, the payload's length and its checksum, as the cache writes them.
    private static byte[] Seal(byte[] header, byte[] payload)
    {
        var bytes = new byte[24 + payload.Length + 8];
        header.CopyTo(bytes, 0);
        BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(16), payload.Length);
        payload.CopyTo(bytes, 24);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.AsSpan(24 + payload.Length), XxHash3.HashToUInt64(payload));
        return bytes;
    }
}
