namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>
/// Names the running boot of this machine, so that a pack verified before a restart is checked again: within one boot
/// the bytes a writer hashed stay in the page cache or were read back from the device it wrote, after one they come
/// from the device alone (a lost write, a bad sector, another system mounting the disk).
/// </summary>
internal static class BootId
{
    private static readonly Lazy<string> s_current = new(Read);

    /// <summary>Linux: /proc/sys/kernel/random/boot_id. Elsewhere: the boot time to the minute, from the uptime.</summary>
    public static string Current => s_current.Value;

    private static string Read()
    {
        if (OperatingSystem.IsLinux())
        {
            try
            {
                return "linux:" + File.ReadAllText("/proc/sys/kernel/random/boot_id").Trim();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // /proc not mounted (a bare container): the boot time below
            }
        }
        // Rounded down to the minute: a clock step or a read across a minute's edge makes a different id, which only
        // costs a check again, never trusts a pack wrongly.
        var bootedAt = DateTime.UtcNow - TimeSpan.FromMilliseconds(Environment.TickCount64);
        return "booted:" + new DateTime(bootedAt.Ticks - bootedAt.Ticks % TimeSpan.TicksPerMinute, DateTimeKind.Utc).ToString("O");
    }
}
