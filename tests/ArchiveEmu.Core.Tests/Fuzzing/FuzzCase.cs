using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Acb;
using ArchiveEmu.Core.VirtualFiles;
using ArchiveEmu.TestSupport.Textures;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>What one mutated archive did to a format's reader and builder.</summary>
/// <param name="Finding">Null when the behaviour was acceptable; otherwise what went wrong (a crash, a hang, unbounded memory, an unclear error).</param>
internal sealed record FuzzOutcome(bool Accepted, string? Error, string? Finding)
{
    /// <summary>For an accepted mutant, what was built from it (for <see cref="IndependentCheck"/>); otherwise null.</summary>
    public BuiltMutant? Built { get; init; }
}

/// <summary>
/// The bytes built from an accepted mutant: unchanged, and patched (<see cref="Replaced"/> and <see cref="Added"/> set to
/// <see cref="FuzzCase.Replacement"/>; an ACB with no in-memory AWB has neither).
/// </summary>
internal sealed record BuiltMutant(byte[] Unchanged, byte[] Patched, EntryKey? Replaced, EntryKey? Added)
{
    /// <summary>For an ACB that keeps a streamed AWB's header: the AWB its patched build was made to follow (<see cref="FuzzCase.FollowedAwb"/>).</summary>
    public byte[]? FollowedAwb { get; init; }
}

/// <summary>
/// Runs one mutated file through detection, the format's reader and its builder (unchanged and patched), reading
/// every byte of what it builds, on its own thread with a time limit and an allocation budget. Acceptable: it
/// works, or it fails with an IOException (ArchiveFormatException included) that names the file. What an accepted
/// mutant built is handed back whole, for <see cref="IndependentCheck"/> to compare.
/// </summary>
internal static class FuzzCase
{
    public static readonly TimeSpan TimeLimit = TimeSpan.FromSeconds(10);

    /// <summary>What the patch puts in the replaced and the added entry: not zeros, so padding cannot pass for it.</summary>
    public static readonly byte[] Replacement = Enumerable.Range(0, 333).Select(i => (byte)(i * 7 + 1)).ToArray();

    /// <summary>The emulated streamed AWB an ACB mutant is made to follow: five entries, so its header differs from the seeds' AWBs in size too.</summary>
    public static readonly byte[] FollowedAwb = TestSupport.AwbTestWriter.Write([.. Enumerable.Range(0, 5).Select(i => TestSupport.TestData.Random(300 + i, 50 + i))]);

    /// <summary>What the patch puts in a TXD (whose entries are textures from DDS files): a 4x4 DXT1 DDS with two mips.</summary>
    public static readonly byte[] DdsReplacement = ArchiveEmu.TestSupport.Textures.DdsTestWriter.Write(ArchiveEmu.TestSupport.Textures.TextureFormat.Dxt1, 4, 4, mipCount: 2, seed: 7);

    public static FuzzOutcome Run(IArchiveFormat format, string path, TimeSpan? timeLimit = null)
    {
        var limit = timeLimit ?? TimeLimit;
        long fileLength = new FileInfo(path).Length;
        long budget = 64L * 1024 * 1024 + 32 * fileLength; // no allocation may be sized by an unchecked header field
        FuzzOutcome? outcome = null;
        var thread = new Thread(() => outcome = Guarded(format, path, fileLength, budget)) { IsBackground = true };
        thread.Start();
        if (!thread.Join(limit))
            return new FuzzOutcome(false, null, $"hang: still running after {limit.TotalSeconds} s");
        return outcome!;
    }

    private static FuzzOutcome Guarded(IArchiveFormat format, string path, long fileLength, long budget)
    {
        long before = GC.GetAllocatedBytesForCurrentThread();
        try
        {
            _ = ArchiveFormats.Detect(path);
            var index = format.ReadIndex(path);
            var unchanged = ReadAll(format.Build(index, ArchivePatch.Empty), fileLength);
            var (patch, replaced, added) = format.Name switch { "spd" => SpdPatch(index), "spr" => SprPatch(index), _ => Patch(format, index) };
            byte[]? followed = null;
            EmulatedArchive patchedArchive;
            if (index is AcbIndex acb)
            {
                // An ACB's entries are its in-memory AWB's (none: nothing to patch); one that keeps a streamed AWB's
                // header is also made to follow an emulated AWB, as routing does for the AWB beside it.
                if (acb.MemoryAwb is null)
                    (patch, replaced, added) = (ArchivePatch.Empty, null, null);
                followed = acb.Acb.StreamAwbHeader is null ? null : FollowedAwb;
                using var awb = followed is null ? null : new VirtualFileBuilder().AppendBytes(followed).Build();
                patchedArchive = AcbFormat.BuildFollowing(index, patch, awb, "bgm");
            }
            else
                patchedArchive = format.Build(index, patch);
            var patched = ReadAll(patchedArchive, fileLength);
            var built = new BuiltMutant(unchanged, patched, replaced, added) { FollowedAwb = followed };
            return Checked(new FuzzOutcome(true, null, null) { Built = built }, before, budget);
        }
        catch (IOException e) when (e.Message.Contains(path, StringComparison.Ordinal))
        {
            return Checked(new FuzzOutcome(false, e.Message, null), before, budget);
        }
        catch (Exception e)
        {
            var frame = e.StackTrace?.Split('\n').FirstOrDefault()?.Trim();
            return new FuzzOutcome(false, e.Message, $"{e.GetType().Name}: {e.Message} [{frame}]");
        }
    }

    private static FuzzOutcome Checked(FuzzOutcome outcome, long before, long budget)
    {
        long used = GC.GetAllocatedBytesForCurrentThread() - before;
        return used <= budget ? outcome : outcome with { Finding = $"allocated {used:N0} bytes for a small file (budget {budget:N0})" };
    }

    /// <summary>What an SPD's patch injects: a DDS file (an SPD's mod textures must be one), not zeros.</summary>
    public static readonly byte[] SpdReplacement = DdsTestWriter.Write(TextureFormat.Dxt1, 8, 8, seed: 7);

    // SPD by FEF's rules: tex_<first>.dds adds the DDS as texture max+1 and moves texture <first>'s sprites to it; no entry is replaced.
    private static (ArchivePatch, EntryKey?, EntryKey?) SpdPatch(ArchiveIndex index)
    {
        var ids = index.Entries.Where(e => e.Name!.StartsWith("tex_", StringComparison.Ordinal))
            .Select(e => int.Parse(e.Name!.AsSpan(4, e.Name!.Length - 8), System.Globalization.CultureInfo.InvariantCulture)).ToList();
        var key = EntryKey.ByName($"tex_{(ids.Count == 0 ? 0 : ids[0])}.dds");
        var patch = new ArchivePatch([new EntryChange(key, EntryInput.FromBytes(SpdReplacement), "fuzz")]);
        return (patch, null, EntryKey.ByName($"tex_{(ids.Count == 0 ? 0 : ids.Max() + 1)}.dds"));
    }

    /// <summary>What an SPR's patch injects: a TMX file.</summary>
    public static readonly byte[] SprReplacement = TmxTestWriter.Write(4, 4, seed: 7);

    // SPR: tex_0.tmx adds the TMX as texture <count> and moves texture 0's sprites to it.
    private static (ArchivePatch, EntryKey?, EntryKey?) SprPatch(ArchiveIndex index)
    {
        int textures = index.Entries.Count(e => e.Name!.StartsWith("tex_", StringComparison.Ordinal));
        var patch = new ArchivePatch([new EntryChange(EntryKey.ByName("tex_0.tmx"), EntryInput.FromBytes(SprReplacement), "fuzz")]);
        return (patch, null, EntryKey.ByName($"tex_{textures}.tmx"));
    }

    // Replace the first entry and add one, so the builder's layout code runs on whatever the reader accepted.
    private static (ArchivePatch, EntryKey?, EntryKey?) Patch(IArchiveFormat format, ArchiveIndex index)
    {
        bool textures = format.Name == "txd"; // a texture dictionary takes DDS files, named <texture>.dds
        var bytes = EntryInput.FromBytes(textures ? DdsReplacement : Replacement);
        var changes = new List<EntryChange>();
        if (format.Addressing == EntryAddressing.ByIndex)
        {
            if (index.Entries.Count > 0)
                changes.Add(new EntryChange(EntryKey.ByIndex(index.Entries[0].Index), bytes, "fuzz"));
            changes.Add(new EntryChange(EntryKey.ByIndex(index.Entries.Count), bytes, "fuzz"));
        }
        else
        {
            if (index.Entries.FirstOrDefault(e => e.Name is not null) is { } first)
                changes.Add(new EntryChange(EntryKey.ByName(first.Name!), bytes, "fuzz"));
            changes.Add(new EntryChange(EntryKey.ByName(textures ? "fuzz_added.dds" : "fuzz_added.bin"), bytes, "fuzz"));
        }
        return (new ArchivePatch(changes), changes.Count == 2 ? changes[0].Key : null, changes[^1].Key);
    }

    private static byte[] ReadAll(EmulatedArchive archive, long fileLength)
    {
        using (archive)
        {
            var file = archive.File;
            if (file.Length > 4 * fileLength + (1 << 20))
                throw new InvalidOperationException($"emulated archive of {file.Length} bytes from a {fileLength}-byte original");
            var bytes = new byte[file.Length];
            for (long at = 0; at < file.Length;)
            {
                int n = file.Read(at, bytes.AsSpan((int)at, (int)Math.Min(64 * 1024, file.Length - at)));
                if (n <= 0)
                    throw new InvalidOperationException($"read returned {n} at {at} of {file.Length}");
                at += n;
            }
            return bytes;
        }
    }
}
