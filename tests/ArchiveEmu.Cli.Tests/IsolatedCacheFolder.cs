using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests;

/// <summary>Points the per-user default cache folder at a temp folder for the whole test run, so tests never touch ~/.cache.</summary>
[SetUpFixture]
public sealed class IsolatedCacheFolder
{
    private TempDirectory? _dir;

    [OneTimeSetUp]
    public void Isolate()
    {
        _dir = new TempDirectory("xdg-cache");
        Environment.SetEnvironmentVariable("XDG_CACHE_HOME", _dir.Path);
    }

    [OneTimeTearDown]
    public void CleanUp() => _dir?.Dispose();
}
