using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Serilog;

namespace ArchiveEmu.Host;

/// <summary>
/// The ArchiveEmu service: a generic host with options from appsettings.json, the environment
/// (ARCHIVEEMU_ prefix) and the command line, logging through Serilog. The FUSE mount it will serve
/// is not part of this build yet (issue 6), so after checking its options it says so and exits 1.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateApplicationBuilder(args);
        builder.Configuration.AddEnvironmentVariables("ARCHIVEEMU_");
        Log.Logger = new LoggerConfiguration()
            .ReadFrom.Configuration(builder.Configuration)
            .WriteTo.Console(outputTemplate: "{Timestamp:HH:mm:ss} {Level:u3} {Message:lj}{NewLine}{Exception}")
            .CreateLogger();
        builder.Services.AddSerilog();

        try
        {
            var options = builder.Configuration.GetSection(MountOptions.Section).Get<MountOptions>() ?? new MountOptions();
            var problems = options.Validate();
            foreach (var problem in problems)
                Log.Error("archiveemu-host: {Problem}", problem);
            if (problems.Count > 0)
                return 1;

            Log.Error("archiveemu-host: this build has no FUSE mount yet; use `archiveemu cat` to read emulated archives");
            return 1;
        }
        finally
        {
            Log.CloseAndFlush();
        }
    }
}
