using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Tests.Formats;

/// <summary>
/// Entry inputs of any size that cost no disk and no memory: a virtual file of zeros, optionally after a few header
/// bytes. The builders lay such an input out without reading it, so field limits of 2, 4 or 8 GiB can be tested.
/// </summary>
internal static class ZeroInputs
{
    public static EntryInput Of(long length, byte[]? header = null)
    {
        var builder = new VirtualFileBuilder();
        if (header is not null)
            builder.AppendBytes(header);
        return EntryInput.FromVirtualFile(builder.AppendZeros(length).Build(), "zeros");
    }
}
