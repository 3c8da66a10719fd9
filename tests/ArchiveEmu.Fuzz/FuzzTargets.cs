using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.Tests.Fuzzing;

namespace ArchiveEmu.Fuzz;

/// <summary>
/// The coverage-guided fuzzing targets, defined once: afl++ runs them through <c>Program</c>, FuzzCorpusReplayTests replays
/// the committed corpus through them. A target returns normally when its input was read or refused with the error its
/// code documents for damaged input (naming the file where the API takes one); any other exception escapes (an afl crash).
/// </summary>
public static class FuzzTargets
{
    /// <summary>Every format reader, by the format's name (FuzzSeeds' formats).</summary>
    public static IReadOnlyList<string> Formats => FuzzSeeds.Formats;

    /// <summary>Every target: the formats, then CRILAYLA and @UTF on their own, the merged cache's parsers, then Reloaded-II's
    /// files and the CLI's profiles (issue 48).</summary>
    public static IReadOnlyList<string> All { get; } =
        [.. FuzzSeeds.Formats, "crilayla", "utf", "cacheindex", "layout", "chunktable", "verified", "modconfig", "reloadedsetup", "profile"];

    /// <summary>
    /// The assemblies fuzz.sh instruments for <paramref name="target"/>: the code under test, so afl++ sees its branches.
    /// The profile reader lives in the CLI's assembly (archiveemu.dll), beside Core which it calls.
    /// </summary>
    public static IReadOnlyList<string> Instrumented(string target) =>
        target == "profile" ? ["ArchiveEmu.Core.dll", "archiveemu.dll"] : ["ArchiveEmu.Core.dll"];

    /// <summary>The chunk table target's input starts with the entry fields it is checked against: i64 length, i32 chunk size, i64 stored length.</summary>
    public const int ChunkTableExtentBytes = CacheParsers.ExtentBytes;

    /// <summary>
    /// Runs <paramref name="bytes"/> through <paramref name="target"/>; <paramref name="scratch"/> is a folder the target may
    /// write its one input file in (reused from input to input).
    /// </summary>
    public static void Run(string target, byte[] bytes, string scratch)
    {
        switch (target)
        {
            case "crilayla": Crilayla_(bytes); break;
            case "utf": Utf(bytes); break;
            case "cacheindex": CacheParsers.Index(bytes); break;
            case "layout": CacheParsers.Layout(bytes); break;
            case "chunktable": CacheParsers.Chunks(bytes); break;
            case "verified": CacheParsers.Verified(bytes, scratch); break;
            case "modconfig": ReloadedReaders.ModConfig(bytes, scratch); break;
            case "reloadedsetup": ReloadedReaders.Setup(bytes, scratch); break;
            case "profile": ProfileReader.Run(bytes, scratch); break;
            default: Format(target, bytes, scratch); break;
        }
    }

    /// <summary>Valid inputs to start from, per target: FuzzSeeds' for the formats, the product's own writers for the rest.</summary>
    public static IReadOnlyList<(string Name, byte[] Bytes)> Seeds(string target, string scratch) => target switch
    {
        "crilayla" => FuzzSeedsOfParts.Crilayla(),
        "utf" => FuzzSeedsOfParts.Utf(),
        "cacheindex" or "layout" or "chunktable" or "verified" => CacheParsers.Seeds(target, scratch),
        "modconfig" => ReloadedReaders.ModConfigSeeds(),
        "reloadedsetup" => ReloadedReaders.SetupSeeds(),
        "profile" => ProfileReader.Seeds(),
        _ => FuzzSeeds.For(target),
    };

    // Reader and builder as FormatFuzzTests judges them (FuzzCase: detection, reader, unchanged and patched builds read
    // whole, a time limit and an allocation budget): a finding escapes as an exception.
    private static void Format(string name, byte[] bytes, string scratch)
    {
        var format = ArchiveFormats.ByName(name) ?? throw new ArgumentException($"no fuzzing target {name}", nameof(name));
        string path = Path.Combine(scratch, "input." + name);
        File.WriteAllBytes(path, bytes);
        var outcome = FuzzCase.Run(format, path);
        if (outcome.Finding is not null)
            throw new FuzzFindingException($"{name}: {outcome.Finding}");
    }

    private const string InputName = "fuzz-input";

    // Crilayla.Decode(bytes, name): damage is an ArchiveFormatException naming the stream.
    private static void Crilayla_(byte[] bytes)
    {
        try
        {
            _ = Crilayla.Decode(bytes, InputName);
        }
        catch (ArchiveFormatException e) when (e.ArchivePath == InputName)
        {
        }
    }

    // UtfTableReader: "a hostile table is one ArchiveFormatException naming the file and the offset"; every cell is read too.
    private static void Utf(byte[] bytes)
    {
        try
        {
            var table = UtfTableReader.Read(bytes, InputName, 0);
            for (int row = 0; row < table.Rows.Count; row++)
                foreach (var column in table.Columns)
                    _ = table.Get(row, column.Name);
        }
        catch (ArchiveFormatException e) when (e.ArchivePath == InputName)
        {
        }
    }
}

/// <summary>What a fuzzing target found: not an error the code documents for damaged input.</summary>
public sealed class FuzzFindingException(string message) : Exception(message);
