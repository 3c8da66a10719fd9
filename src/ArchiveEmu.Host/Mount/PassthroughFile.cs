using System.Diagnostics;
using ArchiveEmu.Core.MergedCache;
using ArchiveEmu.Core.RealFiles;
using ArchiveEmu.Core.VirtualFiles;
using Microsoft.Win32.SafeHandles;

namespace ArchiveEmu.Host.Mount;

/// <summary>
/// How an archive's version becomes one whole real file the kernel can read in its place (FUSE passthrough, root only):
/// the kernel passes a file through only to a whole real file, and an archive's bytes are a merged extent inside a pack
/// or an emulated map of slices. Made at the version's first open; what cannot be made is served by the host.
/// </summary>
internal abstract class PassthroughFile
{
    /// <summary>Larger files are served by the host: a copy (or a clone's unshared part) would cost this much disk and time at first open.</summary>
    public const long MaxBytes = 256L << 20;

    /// <summary>Whether it is made while the mount builds ahead, before any open: a clone of a big archive takes about 0.4 s per GiB.</summary>
    public virtual bool MadeAhead => false;

    /// <summary>The file and the line to log about it, or null when none is made (said through <paramref name="log"/>).</summary>
    /// <exception cref="IOException">Making it failed; the host serves the version.</exception>
    public abstract (SafeFileHandle Handle, string Made)? Make(VirtualFile file, Func<bool> sourcesUnchanged, Action<string> log);
}

/// <summary>A merged archive's private copy in the cache folder (<see cref="PlainCopy"/>), up to <see cref="MaxBytes"/>.</summary>
internal sealed class MergedCopy(string cacheFolder) : PassthroughFile
{
    public override (SafeFileHandle Handle, string Made)? Make(VirtualFile file, Func<bool> sourcesUnchanged, Action<string> log)
    {
        if (file.Length > MaxBytes)
            return null;
        var (handle, took) = PlainCopy.Write(file, cacheFolder);
        return (handle, $"copied for passthrough: {Units.Bytes(file.Length)} in {took.TotalMilliseconds:0} ms");
    }
}

/// <summary>
/// An emulated archive's copy-on-write clone (<see cref="ArchiveClone.WriteUnnamed"/>): a file with no name beside the
/// original that shares the original's blocks, so it costs the disk only what the mods changed, and the kernel reads it
/// at a plain file's speed (docs/BENCHMARKS.md, "Big archives through the mount"). Where the game's file system cannot
/// share blocks (ext4 and most others; btrfs and XFS can), that is said once per mount and nothing more is tried.
/// </summary>
[System.Runtime.Versioning.SupportedOSPlatform("linux")]
internal sealed class EmulatedClone(string original, CloneSupport support) : PassthroughFile
{
    public override bool MadeAhead => true;

    public override (SafeFileHandle Handle, string Made)? Make(VirtualFile file, Func<bool> sourcesUnchanged, Action<string> log)
    {
        if (support.Refused)
            return null;
        var plan = ClonePlan.Of(file, original);
        long unshared = file.Length - plan.Sum(r => r.Length);
        if (unshared > MaxBytes)
        {
            log($"not cloned: {Units.Bytes(unshared)} of it could not be shared with the original (more than a private copy's "
                + $"{Units.Bytes(MaxBytes)}); the host serves it");
            return null;
        }
        var clock = Stopwatch.StartNew();
        SafeFileHandle handle;
        CloneResult result;
        try
        {
            (handle, result) = ArchiveClone.WriteUnnamed(file, original, plan);
        }
        catch (CloneRefusedException e)
        {
            support.Refuse(e.Message, log);
            return null;
        }
        // A mod's file rewritten while its bytes were copied in would leave a clone of neither version.
        if (!sourcesUnchanged())
        {
            handle.Dispose();
            throw new IOException("not cloned: a file it is made of changed while it was cloned");
        }
        return (handle, $"cloned for passthrough in {clock.Elapsed.TotalMilliseconds:0} ms: {Units.Bytes(result.Shared)} shared with the original, "
                        + $"{Units.Bytes(result.Written)} written");
    }
}

/// <summary>Whether this mount's game can be cloned: once a file system refused, no archive is tried again.</summary>
internal sealed class CloneSupport
{
    private int _refused;

    public bool Refused => Volatile.Read(ref _refused) != 0;

    public void Refuse(string reason, Action<string> log)
    {
        if (Interlocked.Exchange(ref _refused, 1) == 0)
            log($"no clones for passthrough ({reason}); emulated archives are served by the host");
    }
}
