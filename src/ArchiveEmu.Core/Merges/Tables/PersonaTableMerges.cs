using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;

namespace ArchiveEmu.Core.Merges.Tables;

/// <summary>
/// Persona Essentials' table merges (docs/TABLES.md) as an <see cref="IEntryMerge"/>: in a game folder holding P5R.exe, P4G.exe
/// or P3P.exe, the catalogued tables inside its CPKs (and inside the PAKs stored in them) are merged field by field.
/// </summary>
internal sealed class PersonaTableMerges : IEntryMerge
{
    public static PersonaTableMerges Instance { get; } = new();

    private PersonaTableMerges()
    {
    }

    // Essentials binds tables by their path in a CPK (CRI FileSystem V2 Hook's bind map), so only CPKs hold them.
    public bool MergesInside(IArchiveFormat format) => format is CpkFormat;

    public IGameMerges? For(MergeContext context) =>
        PersonaGames.Detect(context) is { } game ? new CatalogTableMerges(game.ToString(), TableCatalog.For(game)) : null;
}
