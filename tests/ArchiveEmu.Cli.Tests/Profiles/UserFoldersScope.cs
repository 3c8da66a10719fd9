using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Profiles;

/// <summary>XDG_CONFIG_HOME and XDG_STATE_HOME pointed at a fresh folder for one test (profiles and run logs), put back after.</summary>
internal sealed class UserFoldersScope : IDisposable
{
    private readonly TempDirectory _dir = new("xdg-user");
    private readonly string? _config = Environment.GetEnvironmentVariable("XDG_CONFIG_HOME");
    private readonly string? _state = Environment.GetEnvironmentVariable("XDG_STATE_HOME");

    public UserFoldersScope()
    {
        Environment.SetEnvironmentVariable("XDG_CONFIG_HOME", _dir["config"]);
        Environment.SetEnvironmentVariable("XDG_STATE_HOME", _dir["state"]);
    }

    public string Profiles => _dir["config/archiveemu/profiles"];
    public string Logs => _dir["state/archiveemu/logs"];
    public string this[string relative] => _dir[relative];

    public void Dispose()
    {
        Environment.SetEnvironmentVariable("XDG_CONFIG_HOME", _config);
        Environment.SetEnvironmentVariable("XDG_STATE_HOME", _state);
        _dir.Dispose();
    }
}
