namespace ArchiveEmu.Cli.Output;

/// <summary>Writes a file all at once or not at all: a temp file beside it, flushed, then renamed over it.</summary>
internal static class AtomicFile
{
    public static void Write(string path, byte[] bytes) => Write(path, stream => stream.Write(bytes));

    /// <summary>Streams <paramref name="write"/>'s output to a temp file, then renames it over <paramref name="path"/>.</summary>
    public static void Write(string path, Action<Stream> write)
    {
        var full = Path.GetFullPath(path);
        var folder = Path.GetDirectoryName(full)!;
        if (!Directory.Exists(folder)) // else the error would name the temp file, which the user never gave
            throw new DirectoryNotFoundException($"{full}: its folder {folder} does not exist; create it first, or write elsewhere");
        var temp = $"{full}.{Environment.ProcessId}.tmp";
        try
        {
            using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                write(stream);
                stream.Flush(flushToDisk: true);
            }
            try
            {
                File.Move(temp, full, overwrite: true);
            }
            catch (UnauthorizedAccessException) // .NET's message names no file
            {
                throw new IOException($"{full}: cannot be replaced (access denied: read-only, or held open by another program)");
            }
        }
        catch
        {
            File.Delete(temp);
            throw;
        }
    }
}
