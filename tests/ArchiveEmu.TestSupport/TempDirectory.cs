namespace ArchiveEmu.TestSupport;

/// <summary>A fresh folder under the system temp folder, deleted (with everything in it) on dispose.</summary>
public sealed class TempDirectory : IDisposable
{
    /// <param name="label">A word in the folder's name.</param>
    /// <param name="parent">Where to make it; the system temp folder when null.</param>
    public TempDirectory(string? label = null, string? parent = null)
    {
        Path = System.IO.Path.Combine(parent ?? System.IO.Path.GetTempPath(), $"archiveemu-test-{label ?? "t"}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    /// <summary>The full path of <paramref name="relative"/> inside this folder.</summary>
    public string this[string relative] =>
        System.IO.Path.Combine(Path, relative.Replace('/', System.IO.Path.DirectorySeparatorChar)); // as the system spells paths (Windows: '\\')

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="relative"/> (creating folders) and returns its full path.</summary>
    public string Write(string relative, byte[] bytes)
    {
        var full = this[relative];
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(full)!);
        File.WriteAllBytes(full, bytes);
        return full;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }
}
