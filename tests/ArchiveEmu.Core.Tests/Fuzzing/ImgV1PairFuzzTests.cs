using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// <see cref="FormatFuzzTests"/> for the one format that is two files: IMG v1. Each case mutates the <c>.dir</c> (and every
/// third case the <c>.img</c> too) of a pair from ImgV1TestWriter, then runs detection, the reader and both builders (data
/// and directory, unchanged and patched) on a thread with a time limit and an allocation budget. Acceptable: it works, or an
/// IOException names one of the two files. An accepted pair's builds are re-read by ImgV1IndependentReader and compared,
/// entry by entry, with what it reads in the mutant (<see cref="IndependentCheck.Compare"/>).
/// </summary>
public sealed class ImgV1PairFuzzTests
{
    private const int DefaultCases = 300;

    private static int Cases => int.TryParse(Environment.GetEnvironmentVariable("ARCHIVEEMU_FUZZ_CASES"), out int n) && n > 0 ? n : DefaultCases;

    /// <summary>Valid pairs to mutate: several entries with a gap-free layout, and one with an empty record and a gap.</summary>
    internal static IReadOnlyList<(string Name, byte[] Img, byte[] Dir)> Seeds()
    {
        var (img, dir) = ImgV1TestWriter.Write([("a.dff", Small(20)), ("b.txd", Small(21)), ("c.col", Small(22))]);
        var (img2, dir2) = ImgV1TestWriter.Write([("infernus.txd", Small(23)), ("empty.dff", []), ("x.ifp", Small(24))]);
        byte[] gapped = [.. img2, .. new byte[ImgV1TestWriter.Sector]]; // a free sector at the end, as edited archives have
        return [("writer", img, dir), ("writer, empty entry, trailing sector", gapped, dir2)];
    }

    [Test]
    public void MutatedPairs_AreReadOrRefusedWithAnErrorNamingAFile_AndAcceptedOnesReadBackTheSame()
    {
        var seeds = Seeds();
        using var dir = new TempDirectory("fuzz-imgv1");
        var findings = new List<string>();
        int accepted = 0, compared = 0;
        for (int i = 0; i < Cases; i++)
        {
            var (seedName, seedImg, seedDir) = seeds[i % seeds.Count];
            var (kind, dirBytes) = Mutator.Mutate(seedDir, FormatFuzzTests.CaseSeed("img-v1.dir", i));
            var imgBytes = i % 3 == 2 ? Mutator.Mutate(seedImg, FormatFuzzTests.CaseSeed("img-v1.img", i)).Bytes : seedImg;
            var img = dir.Write($"case{i}/gta3.img", imgBytes);
            dir.Write($"case{i}/gta3.dir", dirBytes);
            var (built, finding) = Run(img, dir[$"case{i}/gta3.dir"]);
            string label = $"case {i} ({kind} of the .dir{(i % 3 == 2 ? " and a mutated .img" : "")}, {seedName})";
            if (finding is not null)
                findings.Add($"{label}: {finding}");
            else if (built is not null)
            {
                accepted++;
                var mutant = View(imgBytes, dirBytes);
                compared += mutant is null ? 0 : 1;
                findings.AddRange(IndependentCheck.Compare("img", built.Value.Mutant, mutant, View(built.Value.Unchanged), View(built.Value.Patched))
                    .Select(problem => $"{label}: {problem}"));
            }
            Directory.Delete(dir[$"case{i}"], recursive: true);
        }
        TestContext.Out.WriteLine($"fuzz img-v1: {Cases} cases, {accepted} read and built ({compared} read by the independent reader too), {findings.Count} findings");
        Assert.That(findings, Is.Empty, string.Join("\n", findings.Take(20)));
        Assert.That(compared, Is.GreaterThan(0), "the independent reader compared no mutant pair: that is no check at all");
    }

    [Test]
    public void TheUnmutatedSeeds_AreAllReadAndBuilt()
    {
        using var dir = new TempDirectory("fuzz-imgv1-seeds");
        foreach (var (name, img, directory) in Seeds())
        {
            var path = dir.Write($"{name.Length}/gta3.img", img);
            dir.Write($"{name.Length}/gta3.dir", directory);
            Assert.That(ArchiveFormats.Detect(path), Is.SameAs(ImgV1Format.Instance), name);
            var (built, finding) = Run(path, dir[$"{name.Length}/gta3.dir"]);
            Assert.That((built is not null, finding), Is.EqualTo((true, (string?)null)), $"{name}: a fuzzer whose seeds fail tests nothing");
        }
    }

    private readonly record struct BuiltPair(BuiltMutant Mutant, (byte[] Img, byte[] Dir) Unchanged, (byte[] Img, byte[] Dir) Patched);

    /// <summary>Detect, read and build both files (unchanged and patched) on a thread of its own; a finding when that goes wrong.</summary>
    private static (BuiltPair? Built, string? Finding) Run(string img, string directory)
    {
        long length = new FileInfo(img).Length + new FileInfo(directory).Length;
        long budget = 64L * 1024 * 1024 + 32 * length;
        (BuiltPair?, string?) result = (null, "no result");
        var thread = new Thread(() =>
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            try
            {
                _ = ArchiveFormats.Detect(img);
                var index = ImgV1Format.Instance.ReadIndex(img);
                var unchanged = Both(index, ArchivePatch.Empty, length);
                var changes = new List<EntryChange>();
                var bytes = EntryInput.FromBytes(FuzzCase.Replacement);
                if (index.Entries.FirstOrDefault() is { } first)
                    changes.Add(new EntryChange(EntryKey.ByName(first.Name!), bytes, "fuzz"));
                changes.Add(new EntryChange(EntryKey.ByName("fuzz_added.bin"), bytes, "fuzz"));
                var patched = Both(index, new ArchivePatch(changes), length);
                var keys = changes.Select(c => c.Key).ToArray();
                var built = new BuiltPair(new BuiltMutant([], [], keys.Length == 2 ? keys[0] : null, keys[^1]), unchanged, patched);
                result = (built, null);
            }
            catch (IOException e) when (e.Message.Contains(img, StringComparison.Ordinal) || e.Message.Contains(directory, StringComparison.Ordinal))
            {
                result = (null, null);
            }
            catch (Exception e)
            {
                result = (null, $"{e.GetType().Name}: {e.Message} [{e.StackTrace?.Split('\n').FirstOrDefault()?.Trim()}]");
            }
            long used = GC.GetAllocatedBytesForCurrentThread() - before;
            if (used > budget)
                result = (null, $"allocated {used:N0} bytes for a small pair (budget {budget:N0})");
        }) { IsBackground = true };
        thread.Start();
        return thread.Join(FuzzCase.TimeLimit) ? result : (null, $"hang: still running after {FuzzCase.TimeLimit.TotalSeconds} s");
    }

    private static (byte[] Img, byte[] Dir) Both(ArchiveIndex index, ArchivePatch patch, long length) =>
        (ReadAll(ImgV1Format.Instance.Build(index, patch), length), ReadAll(ImgV1Format.BuildDirectory(index, patch), length));

    private static byte[] ReadAll(EmulatedArchive archive, long length)
    {
        using (archive)
        {
            if (archive.File.Length > 4 * length + (1 << 20))
                throw new InvalidOperationException($"emulated file of {archive.File.Length} bytes from a {length}-byte pair");
            var bytes = new byte[archive.File.Length];
            for (long at = 0; at < bytes.Length;)
            {
                int n = archive.File.Read(at, bytes.AsSpan((int)at));
                if (n <= 0)
                    throw new InvalidOperationException($"read returned {n} at {at} of {bytes.Length}");
                at += n;
            }
            return bytes;
        }
    }

    private static IndependentView? View((byte[] Img, byte[] Dir) pair) => View(pair.Img, pair.Dir);

    /// <summary>Entry name (lower case, as IMG compares) → sha256 of its whole sectors; null when the reader rejects the pair.</summary>
    private static IndependentView? View(byte[] img, byte[] dir)
    {
        IReadOnlyList<ImgV1Entry> entries;
        try
        {
            entries = ImgV1IndependentReader.Read(img, dir);
        }
        catch (InvalidDataException)
        {
            return null;
        }
        var view = new Dictionary<string, string?>(StringComparer.Ordinal);
        foreach (var e in entries)
            view[e.Name.ToLowerInvariant()] = view.ContainsKey(e.Name.ToLowerInvariant()) ? null : AfsIndependentReader.Sha256(e.Bytes);
        return new IndependentView(view, true);
    }

    private static byte[] Small(int seed) => TestData.Random(seed, 200 + seed * 97);
}
