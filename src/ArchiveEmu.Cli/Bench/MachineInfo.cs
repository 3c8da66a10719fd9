using System.Runtime.InteropServices;
using ArchiveEmu.Core.MergedCache.Policy;

namespace ArchiveEmu.Cli.Bench;

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

    /// <summary>"--dir on /dev/vda, which the kernel reports as rotational (a flag, not a measured speed)".</summary>
    public string DirStorage => $"--dir on {Storage}, {StorageKindText()}";

    // The kernel's rotational flag is what the device driver declares (a virtio disk may say rotational on an SSD).
    private string StorageKindText() => Rotational switch
    {
        true => "which the kernel reports as rotational (a flag, not a measured speed)",
        false => "which the kernel reports as non-rotational (a flag, not a measured speed)",
        null => "for which the kernel reports no rotational flag",
    };

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
