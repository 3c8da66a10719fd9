using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests;

/// <summary>Points XDG_CONFIG_HOME (profiles) and XDG_STATE_HOME (run logs) at a temp folder for the whole test run, so tests never touch the user's.</summary>
[SetUpFixture]
public sealed class IsolatedUserFolders
{
    private TempDirectory? _dir;

    [OneTimeSetUp]
    public void Isolate()
    {
        _dir = new TempDirectory("xdg-user-run");
        Environment.SetEnvironmentVariable("XDG_CONFIG_HOME", _dir["config"]);
        Environment.SetEnvironmentVariable("XDG_STATE_HOME", _dir["state"]);
    }

    [OneTimeTearDown]
    public void CleanUp() => _dir?.Dispose();
}
