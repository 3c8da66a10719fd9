using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Img;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Makes the directory of each IMG v1 archive that mods change follow it (docs/DESIGN.md, "IMG v1: the .dir follows its
/// .img"): the game's <c>x.dir</c> beside <c>x.img</c> (letter case aside, the exact spelling first) becomes a route of its own
/// whose bytes are rebuilt from the same plan as the data file's. A mod file that replaces that <c>x.dir</c> whole would
/// make the pair disagree: it is refused with one line naming it.
/// </summary>
internal static class ImgDirectories
{
    /// <summary>The routes with every followed directory's added, sorted by path.</summary>
    public static ArchiveRoute[] Attach(IReadOnlyList<ArchiveRoute> routes, IReadOnlyList<FileOverride> overrides)
    {
        var byPath = routes.ToDictionary(r => r.RelativePath, StringComparer.Ordinal);
        foreach (var img in routes.Where(r => r.Format == ImgV1Format.Instance && r.Slice is null))
        {
            var dirPath = ImgV1Format.DirectoryOf(img.GamePath) ?? throw new ArchiveFormatException(img.GamePath, 0,
                $"IMG v1 archive without its directory: no {Path.GetFileNameWithoutExtension(img.GamePath)}{ImgV1Format.DirectoryExtension} beside it");
            string dirRelative = img.RelativePath.Contains('/')
                ? $"{img.RelativePath[..img.RelativePath.LastIndexOf('/')]}/{Path.GetFileName(dirPath)}"
                : Path.GetFileName(dirPath);
            if (overrides.FirstOrDefault(o => o.RelativePath == dirRelative) is { } whole)
                throw new IOException($"{whole.SourcePath}: replaces {dirRelative}, the directory of {img.RelativePath}, whose entries mods change "
                    + $"(the rebuilt directory must describe them); put the files in a folder {img.RelativePath}/ instead, or replace both files whole");
            byPath[dirRelative] = new ArchiveRoute(dirRelative, dirPath, ImgV1Format.Instance, ArchivePatch.Empty, []) { ImgData = img };
        }
        return byPath.Values.OrderBy(r => r.RelativePath, StringComparer.Ordinal).ToArray();
    }
}
