using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.Core.Merges.Tables;

namespace ArchiveEmu.Core.Merges.Metaphor;

/// <summary>
/// Metaphor Essentials' table merges as an <see cref="IEntryMerge"/>: in a game folder holding <c>METAPHOR.exe</c> (the application
/// Essentials is bound to: its <c>SupportedAppId</c> is <c>metaphor.exe</c>), the <see cref="MetaphorTables"/> inside its CPK are
/// merged field by field by Persona.Merger.Common's generic rule, which Essentials shares with Persona Essentials (docs/TABLES.md).
/// </summary>
internal sealed class MetaphorTableMerges : IEntryMerge
{
    public const string Executable = "METAPHOR.exe";

    public static MetaphorTableMerges Instance { get; } = new();

    private MetaphorTableMerges()
    {
    }

    // Essentials binds tables by their path in the CPK (CRI FileSystem V2 Hook's bind map), so only a CPK holds them.
    public bool MergesInside(IArchiveFormat format) => format is CpkFormat;

    public IGameMerges? For(MergeContext context) =>
        !context.Holds(Executable) ? null : new CatalogTableMerges("Metaphor: ReFantazio", MetaphorTables.All);
}
