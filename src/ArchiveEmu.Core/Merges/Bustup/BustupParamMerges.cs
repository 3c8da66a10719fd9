using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Merges.Bustup;

/// <summary>
/// P5R's bust-up parameter merge as an <see cref="IEntryMerge"/> (docs/TABLES.md, "P5R bust-up parameters"): while the merging mod
/// <c>p5rpc.bustupparam.merging</c> is loaded (in the Reloaded-II setup's load order, or given with <c>--mod</c>), in a game folder
/// holding <c>P5R.exe</c>, every mod's <c>BUSTUP_PARAM.DAT</c> and <c>MSGASSISTBUSTUPPARAM.DAT</c> found by name at any depth of a CRI
/// probing folder is merged entry by entry over the merging mod's own copy of the game's file, and the result is served at
/// <see cref="BustupParamFile.GamePath"/> in every CPK holding it, over any mod's raw copy there (the merging mod's bind replaces
/// the hook's list for that path).
/// </summary>
internal sealed class BustupParamMerges : IEntryMerge
{
    /// <summary>The merging mod's ModId.</summary>
    public const string MergingModId = "p5rpc.bustupparam.merging";

    /// <summary>Largest file read for the merge; the game's are 75,760 and 9,280 bytes.</summary>
    private const long MaxBytes = 16 << 20;

    public static BustupParamMerges Instance { get; } = new();

    private BustupParamMerges()
    {
    }

    // The merged files are bound by their path in the CPKs (CRI FileSystem V2 Hook's bind map).
    public bool MergesInside(IArchiveFormat format) => format is CpkFormat;

    public IGameMerges? For(MergeContext context) =>
        context.Loaded(MergingModId) is { } merging && context.Holds("P5R.exe")
            ? new Game(merging.Folder)
            : null;

    private sealed class Game(string mergingMod) : IGameMerges
    {
        public MergeClaim? Claim(string entryPath)
        {
            var path = entryPath.Replace('\\', '/').TrimStart('/');
            return BustupParamFile.Both.FirstOrDefault(f => f.GamePath.Equals(path, StringComparison.OrdinalIgnoreCase)) is { } file
                ? new MergeClaim(file.GamePath, null) : null;
        }

        public MergeClaim? ClaimByName(string fileName) =>
            BustupParamFile.Both.FirstOrDefault(f => f.FileName.Equals(fileName, StringComparison.OrdinalIgnoreCase)) is { } file
                ? new MergeClaim(file.GamePath, null) : null;

        public (EntryInput? Input, EntryMergeReport Report) Merge(EntryMergeRequest request)
        {
            var kind = BustupParamFile.Both.First(f => f.GamePath.Equals(request.Path, StringComparison.OrdinalIgnoreCase));
            string shown = $"{MergingModId}'s Original/{kind.OriginalName}";
            var notApplied = new List<string>();
            if (Read(OriginalFile(kind), out var why) is not { } original)
                return (null, new EntryMergeReport(kind.GamePath, [], [],
                    [$"{shown}: {why}; not merged, {request.Mods[^1].Mod}'s file replaces it whole"]) { Original = shown });
            var mods = new List<BustupParamMerger.ModFile>();
            foreach (var file in request.Mods)
            {
                if (Read(file.Served, out var problem) is { } bytes)
                    mods.Add(new BustupParamMerger.ModFile(file.Mod, file.Served, bytes));
                else
                    notApplied.Add($"{file.Mod}: {file.Served}: {problem}; not merged");
            }
            var (merged, report) = BustupParamMerger.Merge(kind, original, mods);
            return (EntryInput.FromBytes(merged), report with { NotApplied = [.. notApplied, .. report.NotApplied], Original = shown });
        }

        // The merging mod's Original/ folder, names compared ignoring case (it was made on Windows); a folder that cannot be
        // listed leaves the name as spelled, whose read then says why.
        private string OriginalFile(BustupParamFile kind)
        {
            string spelled = Path.Combine(mergingMod, "Original", kind.OriginalName);
            try
            {
                var folder = Directory.EnumerateDirectories(mergingMod)
                    .FirstOrDefault(d => Path.GetFileName(d).Equals("Original", StringComparison.OrdinalIgnoreCase));
                return (folder is null ? null : Directory.EnumerateFiles(folder)
                    .FirstOrDefault(f => Path.GetFileName(f).Equals(kind.OriginalName, StringComparison.OrdinalIgnoreCase))) ?? spelled;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return spelled;
            }
        }

        private static byte[]? Read(string file, out string why)
        {
            try
            {
                if (!File.Exists(file))
                {
                    why = "not found";
                    return null;
                }
                var status = Interop.FileStatus.Of(file); // a FIFO is refused before an open that would wait for a writer
                if (!status.IsRegularFile)
                {
                    why = $"{status.Kind}, not a regular file";
                    return null;
                }
                using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1);
                if (stream.Length > MaxBytes)
                {
                    why = $"{stream.Length:N0} bytes, more than a bust-up parameter file holds (at most {MaxBytes:N0} read)";
                    return null;
                }
                var bytes = new byte[stream.Length];
                stream.ReadExactly(bytes);
                why = "";
                return bytes;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                why = e.Message;
                return null;
            }
        }
    }
}
