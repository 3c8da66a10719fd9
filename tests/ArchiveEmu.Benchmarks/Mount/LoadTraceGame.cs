using System.Text.Json;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// The game of issue 47's load trace, made from a seed: one P5R-like named CPK (<c>game/CPK/BIG.CPK</c>, 20,000 entries by
/// default, ~1.9 GB, written entry by entry) whose entry sizes follow a Persona game's mix (5 % 2–16 KB, 68 % 16–64 KB,
/// 22 % 64–256 KB, 4.6 % 256–512 KB, 0.4 % 1–8 MB), a Reloaded-II mod replacing 1 % of its entries through a
/// <c>CRIFsV2Hook/CPK</c> folder (sizes drawn from the same mix), and <c>plain.bin</c>: the emulated CPK's bytes as a plain
/// file, so the trace reads the same offsets of both. Kept in its folder and reused while the parameters match (writing it
/// takes a minute); the emulated CPK's entries are read back with the independent CPK reader (Python), not with Core's.
/// </summary>
internal sealed record LoadTraceGame(string Root, string Game, string Mod, string Original, string Plain, string[] ModFiles,
    LoadTraceGame.Entry[] Entries, long TocOffset, long TocLength, long Length)
{
    public const string CpkPath = "CPK/BIG.CPK";

    /// <summary>The plain file again, as a game file no mod touches (a hard link: no more disk, the same pages).</summary>
    public const string Untouched = "CPK/UNTOUCHED.BIN";
    private const string BindFolder = "CRIFsV2Hook/CPK/loadtrace";

    /// <summary>An entry of the emulated CPK: where it is, how long, and whether the mod replaced it.</summary>
    public sealed record Entry(string Path, long Offset, long Length, bool Modded);

    public static LoadTraceGame Open(string root, int entryCount, int seed)
    {
        string stamp = Path.Combine(root, "loadtrace.json");
        string parameters = $"entries {entryCount}, seed {seed}, format 1";
        string game = Path.Combine(root, "game"), mod = Path.Combine(root, "mod"), plain = Path.Combine(root, "plain.bin");
        string original = Path.Combine(game, CpkPath);
        if (!File.Exists(stamp) || File.ReadAllText(stamp) != parameters)
        {
            if (Directory.Exists(root))
                Directory.Delete(root, recursive: true);
            Write(game, mod, original, entryCount, seed);
            using (var emulated = Core.Serving.EmulatedGame.Open(new Core.Serving.GameSetup(game, [mod])).OpenFile(CpkPath))
            using (var output = new FileStream(plain, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
                emulated.OpenStream().CopyTo(output, 1 << 20);
            File.WriteAllText(stamp, parameters);
        }
        if (!File.Exists(Path.Combine(game, Untouched)))
            using (var link = System.Diagnostics.Process.Start("ln", [plain, Path.Combine(game, Untouched)]))
            {
                link.WaitForExit();
                if (link.ExitCode != 0)
                    throw new IOException($"{Path.Combine(game, Untouched)}: ln could not hard-link {plain}");
            }
        var modFiles = Directory.GetFiles(Path.Combine(mod, BindFolder), "*", SearchOption.AllDirectories);
        var modded = modFiles.Select(f => Path.GetRelativePath(Path.Combine(mod, BindFolder), f).Replace('\\', '/')).ToHashSet(StringComparer.Ordinal);
        var read = CpkIndependentReader.TryRead(plain);
        if (read.Archive is not { } archive)
            throw new InvalidOperationException($"{plain}: the independent CPK reader rejected the emulated CPK: {read.Rejection}");
        var entries = archive.Entries.Select(e => new Entry(e.Path, e.Offset, e.FileSize, modded.Contains(e.Path))).ToArray();
        if (entries.Count(e => e.Modded) != modFiles.Length)
            throw new InvalidOperationException($"{plain}: {entries.Count(e => e.Modded)} entries come from the mod, which has {modFiles.Length} files");
        return new LoadTraceGame(root, game, mod, original, plain, modFiles, entries, archive.TocOffset, archive.HeaderNumber("TocSize"), new FileInfo(plain).Length);
    }

    /// <summary>An entry size of the mix.</summary>
    private static int DrawSize(Random random)
    {
        double p = random.NextDouble();
        (int From, int To) range = p switch
        {
            < 0.05 => (2_000, 16_000),
            < 0.73 => (16_000, 64_000),
            < 0.95 => (64_000, 256_000),
            < 0.996 => (256_000, 512_000),
            _ => (1_000_000, 8_000_000),
        };
        return random.Next(range.From, range.To);
    }

    private static void Write(string game, string mod, string original, int entryCount, int seed)
    {
        var random = new Random(seed);
        var names = Enumerable.Range(0, entryCount).Select(i => (Dir: $"DATA/D{i / 200:D3}", File: $"F{i:D5}.BIN")).ToArray();
        var sizes = names.Select(_ => DrawSize(random)).ToArray();
        Directory.CreateDirectory(Path.GetDirectoryName(original)!);
        var entries = names.Select(n => new CpkTestWriter.NamedEntry(n.Dir, n.File, [])).ToList();
        using (var output = new FileStream(original, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
            CpkTestWriter.WriteNamed(output, entries, sizes, (i, bytes) => Fill(seed, i, bytes));

        // 1 % of the entries, spread at random, replaced by files of sizes from the same mix.
        string bind = Path.Combine(mod, BindFolder);
        foreach (int i in Enumerable.Range(0, entryCount).OrderBy(_ => random.Next()).Take(Math.Max(1, entryCount / 100)))
        {
            string path = Path.Combine(bind, names[i].Dir, names[i].File);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            var bytes = new byte[DrawSize(random)];
            Fill(seed + 1, i, bytes);
            File.WriteAllBytes(path, bytes);
        }
        File.WriteAllText(Path.Combine(mod, "ModConfig.json"), JsonSerializer.Serialize(new
        {
            ModId = "loadtrace.mod", ModName = "load trace mod", ModAuthor = "ArchiveEmu benchmark", ModVersion = "1.0.0", ModDll = "",
            ModDependencies = new[] { "reloaded.sharedlib.hooks", "p5rpc.modloader" }, SupportedAppId = new[] { "p5r.exe" }, IsLibrary = false,
        }));
    }

    // Bytes no two entries share (a cheap generator: the content does not matter, only that it is not all alike).
    private static void Fill(int seed, int index, Span<byte> bytes)
    {
        ulong state = (ulong)(uint)seed << 32 | (uint)index | 1;
        var words = System.Runtime.InteropServices.MemoryMarshal.Cast<byte, ulong>(bytes);
        for (int w = 0; w < words.Length; w++)
        {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            words[w] = state;
        }
        for (int b = words.Length * 8; b < bytes.Length; b++)
            bytes[b] = (byte)(index + b);
    }
}
