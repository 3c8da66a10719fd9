using Microsoft.Extensions.Configuration;
using Serilog;
using Serilog.Core;
using Serilog.Events;

namespace ArchiveEmu.Host.Tests;

public sealed class LogLevelSettingsTests
{
    private static Logger LoggerFrom(params (string Key, string Value)[] settings)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(settings.Select(s => KeyValuePair.Create(s.Key, (string?)s.Value)))
            .Build();
        return new LoggerConfiguration().ReadLevels(configuration).CreateLogger();
    }

    private static bool Writes(Logger logger, string source, LogEventLevel level) => logger.ForContext(Constants.SourceContextPropertyName, source).IsEnabled(level);

    [Test]
    public void NothingSet_LogsInformation_AndOnlyWarningsFromMicrosoft_AsTheShippedAppsettingsDid()
    {
        using var logger = LoggerFrom();
        Assert.That(Writes(logger, "ArchiveEmu.Host.MountService", LogEventLevel.Information), Is.True);
        Assert.That(Writes(logger, "ArchiveEmu.Host.MountService", LogEventLevel.Debug), Is.False);
        Assert.That(Writes(logger, "Microsoft.Hosting.Lifetime", LogEventLevel.Information), Is.False, "a lone binary has no appsettings.json");
        Assert.That(Writes(logger, "Microsoft.Hosting.Lifetime", LogEventLevel.Warning), Is.True);
    }

    [Test]
    public void TheDefaultLevel_InAnyCase_AndAnOverride_AreRead()
    {
        using var logger = LoggerFrom(("Serilog:MinimumLevel:Default", "debug"), ("Serilog:MinimumLevel:Override:Microsoft", "Error"),
            ("Serilog:MinimumLevel:Override:ArchiveEmu.Host.Fuse", "Warning"));
        Assert.That(Writes(logger, "ArchiveEmu.Host.MountService", LogEventLevel.Debug), Is.True);
        Assert.That(Writes(logger, "ArchiveEmu.Host.Fuse.LibFuse", LogEventLevel.Information), Is.False);
        Assert.That(Writes(logger, "Microsoft.Hosting.Lifetime", LogEventLevel.Warning), Is.False);
        Assert.That(Writes(logger, "Microsoft.Hosting.Lifetime", LogEventLevel.Error), Is.True);
    }

    [Test]
    public void MinimumLevelAsOneValue_IsTheDefaultLevel()
    {
        using var logger = LoggerFrom(("Serilog:MinimumLevel", "Warning"));
        Assert.That(Writes(logger, "ArchiveEmu.Host.MountService", LogEventLevel.Information), Is.False);
        Assert.That(Writes(logger, "ArchiveEmu.Host.MountService", LogEventLevel.Warning), Is.True);
    }

    [Test]
    public void OtherSerilogSettings_AreNamedAsNotRead()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Serilog:MinimumLevel:Default"] = "Information",
            ["Serilog:WriteTo:0:Name"] = "File",
            ["Serilog:Enrich:0"] = "FromLogContext",
        }).Build();
        Assert.That(LogLevelSettings.Unread(configuration), Is.EqualTo(new[]
        {
            "Serilog:Enrich is not read: the host reads only Serilog:MinimumLevel (the log goes to the console)",
            "Serilog:WriteTo is not read: the host reads only Serilog:MinimumLevel (the log goes to the console)",
        }));
    }
}
