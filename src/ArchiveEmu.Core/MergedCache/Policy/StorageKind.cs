using System.Globalization;

namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>
/// The block device under a folder and whether it is rotational (a hard disk, where every extra file
/// costs a seek), read from /proc/self/mountinfo and /sys/dev/block on Linux.
/// </summary>
internal sealed record StorageKind(string Device, bool? IsRotational)
{
    public static StorageKind Unknown { get; } = new("unknown device", null);

    public string Describe() => IsRotational switch
    {
        true => $"rotational ({Device})",
        false => $"non-rotational ({Device})",
        null => $"of unknown kind ({Device})",
    };

    /// <summary>The storage holding <paramref name="folder"/>; <see cref="Unknown"/> where it cannot be told. Never throws.</summary>
    public static StorageKind Of(string folder)
    {
        try
        {
            if (!OperatingSystem.IsLinux())
                return Unknown;
            var mount = FindMount(Path.GetFullPath(folder));
            if (mount is null)
                return Unknown;
            var (majorMinor, source) = mount.Value;
            var block = $"/sys/dev/block/{majorMinor}";
            if (!Directory.Exists(block))
                return new StorageKind(source, null); // tmpfs, overlay, network: no block device
            // A partition has no queue of its own: its parent disk's folder holds it.
            foreach (var queue in new[] { Path.Combine(block, "queue/rotational"), Path.Combine(block, "../queue/rotational") })
                if (File.Exists(queue))
                    return new StorageKind(source, File.ReadAllText(queue).Trim() == "1");
            return new StorageKind(source, null);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return Unknown;
        }
    }

    // mountinfo fields: id parent major:minor root mount-point options ... - fstype source superoptions
    private static (string MajorMinor, string Source)? FindMount(string path)
    {
        (string, string)? best = null;
        int bestLength = -1;
        string? handleMount = HandleMountId(path);
        foreach (var line in File.ReadLines("/proc/self/mountinfo"))
        {
            var fields = line.Split(' ');
            if (fields.Length < 10)
                continue;
            string mountPoint = Unescape(fields[4]);
            bool contains = handleMount is not null ? fields[0] == handleMount
                : mountPoint == "/" || path == mountPoint || path.StartsWith(mountPoint + "/", StringComparison.Ordinal);
            if (!contains || mountPoint.Length < bestLength)
                continue;
            int dash = Array.IndexOf(fields, "-");
            string source = dash > 0 && dash + 2 < fields.Length ? fields[dash + 2] : fields[2];
            best = (fields[2], source);
            bestLength = mountPoint.Length;
        }
        return best;
    }

    /// <summary>
    /// For a folder known by an open handle (<c>/proc/self/fd/N</c>: the game folder under an in-place mount), the id of
    /// the mount the handle is on (fdinfo's mnt_id) — the path itself would find /proc's. Null for any other path.
    /// </summary>
    private static string? HandleMountId(string path)
    {
        var match = System.Text.RegularExpressions.Regex.Match(path, @"^/proc/self/fd/(\d+)(/|$)");
        if (!match.Success)
            return null;
        foreach (var line in File.ReadLines($"/proc/self/fdinfo/{match.Groups[1].Value}"))
            if (line.StartsWith("mnt_id:", StringComparison.Ordinal))
                return line["mnt_id:".Length..].Trim();
        return null;
    }

    private static string Unescape(string field) =>
        System.Text.RegularExpressions.Regex.Replace(field, @"\\([0-7]{3})",
            m => ((char)Convert.ToInt32(m.Groups[1].Value, 8)).ToString(CultureInfo.InvariantCulture));
}
