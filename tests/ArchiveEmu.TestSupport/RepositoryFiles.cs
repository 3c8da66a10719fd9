namespace ArchiveEmu.TestSupport;

/// <summary>The repository the tests run from (the nearest folder above the test binaries holding ArchiveEmu.sln), and its fixtures.</summary>
public static class RepositoryFiles
{
    public static string Root { get; } = FindRoot();

    /// <summary>The full path of <paramref name="relative"/> under fixtures/.</summary>
    public static string Fixture(string relative) => Path.Combine(Root, "fixtures", relative);

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "ArchiveEmu.sln")))
                return dir.FullName;
        throw new InvalidOperationException("ArchiveEmu.sln not found above the test binaries");
    }
}
