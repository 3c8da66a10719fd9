using System.Reflection;
using System.Text.RegularExpressions;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Architecture;

/// <summary>
/// Issue 49, part 3: a game's entry merges (Persona's tables) are a capability registered in <see cref="EntryMerges"/>, kept in
/// their own folder under Merges; the layers above name none of their types, only the capability and its report.
/// </summary>
public sealed class EntryMergeTests
{
    private static readonly string[] LayersAbove =
    [
        "src/ArchiveEmu.Core/Routing", "src/ArchiveEmu.Core/Serving", "src/ArchiveEmu.Core/Api", "src/ArchiveEmu.Cli", "src/ArchiveEmu.Host",
    ];

    // The top-level types of the registered merges' folders (ArchiveEmu.Core.Merges.Tables, …), read from the assembly.
    private static string[] MergeFolderTypeNames() =>
        typeof(EntryMerges).Assembly.GetTypes()
            .Where(t => !t.IsNested && t.Namespace is { } ns && ns.StartsWith("ArchiveEmu.Core.Merges.", StringComparison.Ordinal)
                && t.GetCustomAttribute<System.Runtime.CompilerServices.CompilerGeneratedAttribute>() is null)
            .Select(t => t.Name.Split('`')[0]).Distinct().ToArray();

    [Test]
    public void PersonaTables_AreRegistered_AndLiveInAFolderOfTheirOwn()
    {
        Assert.That(EntryMerges.All.Select(m => m.GetType().FullName), Does.Contain("ArchiveEmu.Core.Merges.Tables.PersonaTableMerges"));
        Assert.That(MergeFolderTypeNames(), Is.SupersetOf(new[] { "TableCatalog", "TableMerger", "PersonaGame", "MergeableTable" }));
    }

    [Test]
    public void LayersAboveMerges_NameNoMergeFolderType()
    {
        var names = new Regex($@"\b(Merges\.[A-Z][A-Za-z]*\.|{string.Join('|', MergeFolderTypeNames())})\b");
        var found = new List<string>();
        foreach (var layer in LayersAbove)
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(RepositoryFiles.Root, layer), "*.cs", SearchOption.AllDirectories))
            {
                if (file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}") || file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}"))
                    continue;
                found.AddRange(names.Matches(File.ReadAllText(file)).Select(m => $"{Path.GetRelativePath(RepositoryFiles.Root, file)} names {m.Value}"));
            }
        }
        Assert.That(found.Distinct(), Is.Empty);
    }
}
