using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace ArchiveEmu.Core.VirtualFiles;

/// <summary>Throws kept out of the read path so it stays small enough to inline.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowFileShrank(PooledFile file, long offset, int wanted) =>
        throw new IOException(
            $"{file.Path}: file is shorter than when the archive was built " +
            $"(was {file.Identity.Length} bytes; nothing to read at offset {offset}, {wanted} bytes wanted)");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowNegativeOffset(long offset) =>
        throw new ArgumentOutOfRangeException(nameof(offset), offset, "Read offset must not be negative.");

    [DoesNotReturn, MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThrowDisposed(string what) => throw new ObjectDisposedException(what);
}
