using System.Runtime.InteropServices;
using ArchiveEmu.Core.MergedCache;

namespace ArchiveEmu.Cli.Commands.Bench;

/// <summary>The machine a bench ran on, as far as it can be read without privileges.</summary>
internal sealed record MachineInfo(string Os, string Kernel, string Cpu, int CpuCount, long MemoryBytes, string Runtime,
    string Storage, bool? Rotational, string Folder)
{
    public static MachineInfo Collect(string folder)
    {
        var storage = StorageKind.Of(folder);
        return new MachineInfo(RuntimeInformation.OSDescription, ReadOrUnknown("/proc/sys/kernel/osrelease"), CpuModel(),
            Environment.ProcessorCount, GC.GetGCMemoryInfo().TotalAvailableMemoryBytes, RuntimeInformation.FrameworkDescription,
            storage.Device, storage.IsRotational, folder);
    }

    public string Describe() => $"{Computer}; {DirStorage}";

    /// <summary>"AMD EPYC, 2 CPUs, 23 GiB, Debian GNU/Linux 12 (bookworm), .NET 10.0.12".</summary>
    public string Computer => $"{Cpu}, {CpuCount} CPUs, {MemoryBytes / (1L << 30)} GiB, {Os}, {Runtime}";

    /// <summary>"--dir on rotational storage (/dev/vda)".</summary>
    public string DirStorage =>
        $"--dir on {(Rotational switch { true => "rotational", false => "non-rotational", null => "unknown" })} storage ({Storage})";

    private static string CpuModel()
    {
        try
        {
            var line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
            return line is null ? RuntimeInformation.ProcessArchitecture.ToString() : line[(line.IndexOf(':') + 1)..].Trim();
        }
        catch (IOException)
        {
            return RuntimeInformation.ProcessArchitecture.ToString();
        }
    }

    private static string ReadOrUnknown(string path)
    {
        try
        {
            return File.ReadAllText(path).Trim();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "unknown";
        }
    }
}
