using System.Runtime.InteropServices;

namespace ArchiveEmu.Core.Interop;

/// <summary>Paths as the kernel resolves them, for comparing folders given different ways (a symlinked Steam root, a Wine drive link).</summary>
internal static class RealPaths
{
    /// <summary>
    /// The full path with its symlinks resolved by the kernel (realpath(3)) as far as it exists, the rest appended. On
    /// Windows the full path only ('..' resolved, links not).
    /// </summary>
    public static string AsFarAsItExists(string path)
    {
        var full = Path.GetFullPath(path);
        if (OperatingSystem.IsWindows())
            return full;
        var rest = "";
        for (var existing = full; ; existing = Path.GetDirectoryName(existing)!)
        {
            nint resolved = LibC.RealPath(existing, 0);
            if (resolved != 0)
            {
                try
                {
                    return Path.Join(Marshal.PtrToStringUTF8(resolved), rest);
                }
                finally
                {
                    LibC.Free(resolved);
                }
            }
            if (existing == "/")
                return full;
            rest = Path.Join(Path.GetFileName(existing), rest);
        }
    }
}
