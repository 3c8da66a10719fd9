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
    public static int Run(string[] args) => Run(args, whileMounted: null);

    /// <summary>
    /// <c>archiveemu mount</c> and <c>run</c>: serves <paramref name="request"/>, laid over the host's appsettings.json and
    /// ARCHIVEEMU_ variables (no command line of its own to bind), as <see cref="Run(string[], Func{int}?)"/> otherwise.
    /// </summary>
    internal static int Run(Requests.MountRequest request, Func<int>? whileMounted) => Run([], request, whileMounted);

    /// <summary>
    /// Mounts, calls <paramref name="whileMounted"/> once the mount is ready, unmounts when it returns and gives its exit
    /// code (<c>archiveemu run</c>); without it, serves until Ctrl+C/SIGTERM as <see cref="Run(string[])"/>. Signals are then
    /// <paramref name="whileMounted"/>'s to handle: the host's own Ctrl+C/SIGTERM handling is off.
    /// </summary>
    public static int Run(string[] args, Func<int>? whileMounted) => Run(args, request: null, whileMounted);

    private static int Run(string[] args, Requests.MountRequest? request, Func<int>? whileMounted)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            Args = args,
            ContentRootPath = AppContext.BaseDirectory, // appsettings.json beside the program, wherever it is started from
        });
        builder.Configuration.AddEnvironmentVariables("ARCHIVEEMU_");
        builder.Configuration.AddCommandLine(args, Switches);
        if (request is not null)
            builder.Configuration.AddInMemoryCollection(request.LoggingSettings());
        if (SettingValues.Problem(builder.Configuration) is { } malformed)
        {
            Console.Error.WriteLine($"archiveemu-host: {malformed}"); // before the logger, which a bad level would stop
            return 2;
        }
        var shown = new ShownGamePath();
        var logFile = LogFileSink.From(builder.Configuration); // ArchiveEmu:LogFile, which run sets
        var logging = new LoggerConfiguration()
            .ReadLevels(builder.Configuration)
            // A start-up failure is reported below as one line; the generic host would add it again with a stack trace.
            .Filter.ByExcluding(e => e.MessageTemplate.Text == "Hosting failed to start")
            .Enrich.With(shown)
            .WriteTo.Logger(console => console.Filter.ByExcluding(e => logFile is not null && LogDetail.Is(e)) // the detail is in the file
                .WriteTo.Console(outputTemplate: "{Timestamp:HH:mm:ss} {Level:u3} {Message:lj}{NewLine}{Exception}"));
        Log.Logger = (logFile is null ? logging : logging.WriteTo.Sink(logFile)).CreateLogger();
        builder.Services.AddSerilog();
        foreach (var unread in LogLevelSettings.Unread(builder.Configuration))
            Log.Warning("{Setting}", unread);

        MountOptions? options = null;
        try
        {
            // Bound by the configuration binding source generator (no reflection: the NativeAOT build binds the same way).
            options = builder.Configuration.GetSection(MountOptions.Section).Get<MountOptions>() ?? new MountOptions();
            request?.ApplyTo(options); // a command's request over the host's own settings
            var served = request?.Over(options) ?? options.Request();
            options.LogFile = logFile?.Path;
            if (Preflight(options, served.Serving) is { } problem)
            {
                Log.Error("archiveemu-host: {Problem}", problem);
                return 1;
            }
            // In place: the handle is taken once a dead mount is cleared, before the new mount covers the folder.
            if (options.InPlace)
                shown.Handle = options.GameHandle = GameFolderHandle.Open(options.ServedAt, options.ShownAt);
            builder.Services.AddSingleton(options);
            builder.Services.AddSingleton(served);
            builder.Services.AddHostedService<MountService>();
            builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(10));
            if (whileMounted is not null)
                builder.Services.AddSingleton<IHostLifetime, UnsignalledLifetime>();
            using var host = builder.Build();
            if (whileMounted is null)
            {
                host.Run();
                return 0;
            }
            host.Start(); // returns once mounted; throws what mounting threw
            try
            {
                return whileMounted();
            }
            finally
            {
                host.StopAsync().GetAwaiter().GetResult();
            }
        }
        catch (Exception e) when (e is IOException or InvalidDataException or UnauthorizedAccessException or DllNotFoundException or EntryPointNotFoundException)
        {
            Log.Error("archiveemu-host: {Problem}", e.Message.ReplaceLineEndings(" "));
            return 1;
        }
        finally
        {
            Log.CloseAndFlush();
            options?.GameHandle?.Dispose();
        }
    }

    /// <summary>Everything that can be checked before mounting, as one line; null when all is well.</summary>
    private static string? Preflight(MountOptions options, Requests.ServingOptions served)
    {
        var problems = options.Validate(served);
        if (problems.Count > 0)
            return string.Join("; ", problems);
        if (!OperatingSystem.IsLinux())
            return "the FUSE mount needs Linux";
        if (!StatFields.IsSupported)
            return $"the FUSE mount supports x86_64 and arm64, not {System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture}";
        if (options.InPlace)
        {
            if (MountPointPlace.CheckInPlace(options.Game!, options.Mods, served.NoCache ? null : served.Cache) is { } inside)
                return inside;
        }
        else if (MountPointPlace.Check(options.MountPoint!, options.Game!, options.Mods) is { } inside)
            return inside;
        // The machine's checks, as doctor shows them (MountReadiness): the first that stops a mount is the line.
        if (MountReadiness.Of(FuseMachine.Current(), libFuseNeeded: !options.UsesKernelProtocol).FirstOrDefault(c => c.Stops) is { } stops)
            return stops.Line;
        Action<string> cleaned = message => Log.Warning("{Message}", message);
        return options.InPlace ? MountPointState.PrepareInPlace(options.ServedAt, cleaned) : MountPointState.Prepare(options.ServedAt, cleaned);
    }

    /// <summary>
    /// <c>archiveemu unmount DIR</c>: detaches the ArchiveEmu mount at <paramref name="folder"/> (lazily: a dead one left by a
    /// killed host, or a live one, whose host then stops). Anything else mounted there is refused. One line; exit 0 or 1.
    /// </summary>
    public static int Unmount(string folder, TextWriter output, TextWriter error)
    {
        var full = Path.GetFullPath(folder).TrimEnd('/');
        if (!OperatingSystem.IsLinux())
        {
            error.WriteLine($"archiveemu unmount: {full}: unmounting needs Linux");
            return 1;
        }
        full = Core.Interop.RealPaths.Of(full); // mountinfo lists the path with its symlinks resolved
        if (MountPointState.Find(full) is not { } mount)
        {
            error.WriteLine($"archiveemu unmount: {full}: nothing is mounted there");
            return 1;
        }
        if (!mount.IsArchiveEmu)
        {
            error.WriteLine($"archiveemu unmount: {full}: the mount there is not ArchiveEmu's ({mount}); refusing to unmount it");
            return 1;
        }
        bool dead = MountPointState.IsDead(full);
        MountPointState.DetachLazily(full);
        if (MountPointState.Find(full) is { IsArchiveEmu: true })
        {
            error.WriteLine($"archiveemu unmount: {full}: could not unmount it (as a normal user this needs fusermount3)");
            return 1;
        }
        output.WriteLine(dead ? $"{full}: unmounted a dead ArchiveEmu mount (left by a host that was killed)"
            : $"{full}: unmounted the ArchiveEmu mount; its host stops");
        return 0;
    }
}
