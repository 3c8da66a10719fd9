using System.Globalization;

namespace ArchiveEmu.Benchmarks.Mount;

/// <summary>
/// Bytes read from the disk: by processes (/proc/PID/io read_bytes: what their reads, read-ahead and page faults fetched from
/// the block layer, counted to the process that started them), and by this process's blkio cgroup when it runs in one
/// (cgroup v1 blkio.throttle.io_service_bytes, or v2 io.stat rbytes).
/// </summary>
internal static class DiskBytes
{
    private static readonly string? CgroupFile = FindCgroupFile();

    public static bool HasCgroup => CgroupFile is not null;

    public static string Describe() => CgroupFile is null ? "no blkio cgroup (disk bytes by process)" : $"disk bytes from {CgroupFile}";

    public static long OfProcesses(IEnumerable<int> pids) => pids.Sum(pid =>
        File.ReadLines($"/proc/{pid}/io").Where(l => l.StartsWith("read_bytes:", StringComparison.Ordinal))
            .Select(l => long.Parse(l["read_bytes:".Length..].Trim(), CultureInfo.InvariantCulture)).FirstOrDefault());

    public static long OfCgroup()
    {
        if (CgroupFile is null)
            return 0;
        long total = 0;
        foreach (var line in File.ReadLines(CgroupFile))
        {
            var words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (words.Length == 3 && words[1] == "Read") // v1: "254:0 Read N"
                total += long.Parse(words[2], CultureInfo.InvariantCulture);
            foreach (var word in words.Where(w => w.StartsWith("rbytes=", StringComparison.Ordinal))) // v2: "254:0 rbytes=N …"
                total += long.Parse(word["rbytes=".Length..], CultureInfo.InvariantCulture);
        }
        return total;
    }

    private static string? FindCgroupFile()
    {
        foreach (var line in File.ReadLines("/proc/self/cgroup"))
        {
            var parts = line.Split(':', 3);
            if (parts.Length != 3 || parts[2] == "/")
                continue;
            if (parts[1].Split(',').Contains("blkio") && Path.Combine("/sys/fs/cgroup/blkio" + parts[2], "blkio.throttle.io_service_bytes") is var v1 && File.Exists(v1))
                return v1;
            if (parts[0] == "0" && File.Exists("/sys/fs/cgroup" + parts[2] + "/io.stat"))
                return "/sys/fs/cgroup" + parts[2] + "/io.stat";
        }
        return null;
    }
}
