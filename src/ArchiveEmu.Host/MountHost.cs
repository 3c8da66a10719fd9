using ArchiveEmu.Host.Fuse;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Serilog;

namespace ArchiveEmu.Host;

/// <summary>
/// Runs the mount host until Ctrl+C/SIGTERM: options from appsettings.json (next to the program), the
/// environment (ARCHIVEEMU_ prefix) and the command line; Serilog logging. A bad set-up (options, no
/// /dev/fuse or libfuse3, a busy mount point or one inside the game, a read-only cache with merge always)
/// is one clear line and exit code 1. Used by the host's own
/// Main and, in-process, by <c>archiveemu mount</c>.
/// </summary>
public static class MountHost
{
    private static readonly Dictionary<string, string> Switches = new()
    {
        ["--game"] = "ArchiveEmu:Game",
        ["--mount-point"] = "ArchiveEmu:MountPoint",
        ["--cache"] = "ArchiveEmu:Cache",
        ["--merge"] = "ArchiveEmu:Merge",
        ["--log-level"] = "Serilog:MinimumLevel:Default",
    };

    /// <summary>The log levels <c>--log-level</c> and <c>Serilog:MinimumLevel</c> take (in any case).</summary>
    public static IReadOnlyList<string> LogLevels { get; } = Enum.GetNames<Serilog.Events.LogEventLevel>();

    /// <summary>Serves until stopped; exit 0, 1 for a set-up that cannot be served, 2 for a malformed setting.</summary>
    public static int Run(string[] args)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            Args = args,
            ContentRootPath = AppContext.BaseDirectory, // appsettings.json beside the program, wherever it is started from
        });
        builder.Configuration.AddEnvironmentVariables("ARCHIVEEMU_");
        builder.Configuration.AddCommandLine(args, Switches);
        if (SettingValues.Problem(builder.Configuration) is { } malformed)
        {
            Console.Error.WriteLine($"archiveemu-host: {malformed}"); // before the logger, which a bad level would stop
            return 2;
        }
        Log.Logger = new LoggerConfiguration()
            .ReadFrom.Configuration(builder.Configuration)
            // A start-up failure is reported below as one line; the generic host would add it again with a stack trace.
            .Filter.ByExcluding(e => e.MessageTemplate.Text == "Hosting failed to start")
            .WriteTo.Console(outputTemplate: "{Timestamp:HH:mm:ss} {Level:u3} {Message:lj}{NewLine}{Exception}")
            .CreateLogger();
        builder.Services.AddSerilog();

        try
        {
            var options = builder.Configuration.GetSection(MountOptions.Section).Get<MountOptions>() ?? new MountOptions();
            if (Preflight(options) is { } problem)
            {
                Log.Error("archiveemu-host: {Problem}", problem);
                return 1;
            }
            builder.Services.AddSingleton(options);
            builder.Services.AddHostedService<MountService>();
            builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(10));
            using var host = builder.Build();
            host.Run();
            return 0;
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException or DllNotFoundException or EntryPointNotFoundException)
        {
            Log.Error("archiveemu-host: {Problem}", e.Message.ReplaceLineEndings(" "));
            return 1;
        }
        finally
        {
            Log.CloseAndFlush();
        }
    }

    /// <summary>Everything that can be checked before mounting, as one line; null when all is well.</summary>
    private static string? Preflight(MountOptions options)
    {
        var problems = options.Validate();
        if (problems.Count > 0)
            return string.Join("; ", problems);
        if (!OperatingSystem.IsLinux())
            return "the FUSE mount needs Linux";
        if (!StatFields.IsSupported)
            return $"the FUSE mount supports x86_64 and arm64, not {System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture}";
        if (MountPointPlace.Check(options.MountPoint!, options.Game!, options.Mods) is { } inside)
            return inside;
        if (!File.Exists("/dev/fuse"))
            return "/dev/fuse not found: load the fuse kernel module (modprobe fuse), or give the container --device /dev/fuse";
        if (!options.UsesKernelProtocol && LibFuse.Unavailable() is { } noLibrary)
            return noLibrary;
        return MountPointState.Prepare(Path.GetFullPath(options.MountPoint!), message => Log.Warning("{Message}", message));
    }
}
