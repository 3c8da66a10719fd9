namespace ArchiveEmu.Fuzz;

/// <summary>A target's input file, rewritten for every input.</summary>
internal static class ScratchFile
{
    /// <summary>
    /// Writes <paramref name="bytes"/> over <paramref name="path"/> in place, then cuts off the rest. File.WriteAllBytes opens
    /// with truncation, and ext4 flushes a file truncated to nothing on close (auto_da_alloc): 2 ms an input, most of the
    /// seeded pass's time; overwriting takes microseconds.
    /// </summary>
    public static void Write(string path, byte[] bytes)
    {
        using var stream = new FileStream(path, FileMode.OpenOrCreate, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
        stream.Write(bytes);
        stream.SetLength(bytes.Length);
    }
}
