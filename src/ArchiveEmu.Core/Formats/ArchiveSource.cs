using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Formats;

/// <summary>
/// Where an original archive's bytes are: a whole file, or a slice of one — an AWB stored inside a CPK, a PAK
/// inside a PAK — read in place, never extracted. Offsets inside the archive are relative to <see cref="Offset"/>.
/// </summary>
/// <param name="Path">Full path of the file holding the archive.</param>
/// <param name="Offset">Where the archive starts in that file.</param>
/// <param name="Length">The archive's size in bytes.</param>
/// <param name="Identity">The whole file's size and mtime when the source was made: reads fail if it changes.</param>
internal sealed record ArchiveSource(string Path, long Offset, long Length, FileIdentity Identity)
{
    /// <summary>The whole file at <paramref name="path"/>, as it is now. A missing file is a <see cref="FileNotFoundException"/> naming it.</summary>
    public static ArchiveSource File(string path)
    {
        var full = System.IO.Path.GetFullPath(path);
        var identity = FileIdentity.Of(full);
        return new ArchiveSource(full, 0, identity.Length, identity);
    }

    /// <summary>Bytes [<paramref name="offset"/>, +<paramref name="length"/>) of the file at <paramref name="path"/>; a slice past its end is an IOException naming it.</summary>
    public static ArchiveSource Slice(string path, long offset, long length)
    {
        var full = System.IO.Path.GetFullPath(path);
        var identity = FileIdentity.Of(full);
        if (offset < 0 || length < 0 || offset > identity.Length - length)
            throw new IOException($"{full}: slice [{offset}, {offset + length}) is outside the {identity.Length}-byte file");
        return new ArchiveSource(full, offset, length, identity);
    }

    /// <summary>True for a slice rather than a whole file.</summary>
    public bool IsSlice => Offset != 0 || Length != Identity.Length;

    /// <summary>How errors name it: the path, plus the slice when it is one.</summary>
    public string Name => IsSlice ? $"{Path}[0x{Offset:X}+0x{Length:X}]" : Path;

    public override string ToString() => Name;
}
