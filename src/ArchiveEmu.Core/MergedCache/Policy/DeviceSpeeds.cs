using ArchiveEmu.Core.Interop;
using System.Globalization;

namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>
/// Measured read speeds remembered per device in the cache folder (<c>device-speed.txt</c>: a version line, then
/// "device, MB/s, UTC date" per line), so a probe runs once per device and <see cref="CodecProbes.RememberFor"/>, not per build.
/// </summary>
internal static class DeviceSpeeds
{
    private const string FileName = "device-speed.txt";
    private const string Version = "archiveemu device speeds 1";

    /// <summary>The remembered speed of the device under <paramref name="folder"/>, else a fresh probe (then remembered when the folder takes it).</summary>
    public static double ReadMbps(string folder, CodecProbes probes)
    {
        string device = StorageKind.Of(folder).Device.Replace('\t', ' ');
        var path = Path.Combine(folder, FileName);
        var lines = Read(path);
        foreach (var (name, mbps, measured) in lines)
            if (name == device && DateTime.UtcNow - measured < probes.RememberFor)
                return mbps;
        double fresh = probes.ReadMbps(folder);
        lines.RemoveAll(l => l.Device == device);
        lines.Add((device, fresh, DateTime.UtcNow));
        Write(path, lines);
        return fresh;
    }

    private static List<(string Device, double Mbps, DateTime Measured)> Read(string path)
    {
        var lines = new List<(string, double, DateTime)>();
        try
        {
            var text = File.ReadAllLines(path);
            if (text.Length == 0 || text[0] != Version)
                return lines; // another version or damaged: measured again
            foreach (var line in text.Skip(1))
            {
                var f = line.Split('\t');
                if (f.Length == 3 && double.TryParse(f[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var mbps) && mbps > 0
                    && DateTime.TryParse(f[2], CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind, out var when))
                    lines.Add((f[0], mbps, when.ToUniversalTime()));
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // none remembered
        }
        return lines;
    }

    // A temp file renamed over the old one: a reader never sees half a file. A folder that refuses it only loses the memory.
    private static void Write(string path, List<(string Device, double Mbps, DateTime Measured)> lines)
    {
        var temp = $"{path}.{Environment.ProcessId}.tmp";
        try
        {
            PrivateFiles.CreateFolder(Path.GetDirectoryName(path)!);
            using (var stream = PrivateFiles.Open(temp, FileMode.Create, FileAccess.Write, FileShare.None))
            using (var writer = new StreamWriter(stream))
            {
                writer.WriteLine(Version);
                foreach (var (device, mbps, measured) in lines)
                    writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{device}\t{mbps:R}\t{measured:O}"));
            }
            File.Move(temp, path, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            if (File.Exists(temp))
                File.Delete(temp);
        }
    }
}
