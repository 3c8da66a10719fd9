using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests;

/// <summary>Points XDG_STATE_HOME at a temp folder for the whole test run: every <c>archiveemu run</c> a test starts writes its log there, never in the user's.</summary>
[SetUpFixture]
public sealed class IsolatedRunLogs
{
    private TempDirectory? _dir;

    [OneTimeSetUp]
    public void Isolate()
    {
        _dir = new TempDirectory("xdg-state");
        Environment.SetEnvironmentVariable("XDG_STATE_HOME", _dir.Path);
    }

    [OneTimeTearDown]
    public void CleanUp() => _dir?.Dispose();
}
