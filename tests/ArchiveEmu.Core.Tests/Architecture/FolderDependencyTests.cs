using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Architecture;

/// <summary>Core's folders depend on each other one way only (docs/DESIGN.md, "Serving"): read from the source, so a new reference shows up here.</summary>
public sealed partial class FolderDependencyTests
{
    // Each folder and the folders it may use; anything else (in particular a cycle) fails.
    private static readonly Dictionary<string, string[]> Allowed = new()
    {
        ["Interop"] = [],
        ["VirtualFiles"] = ["Interop"],
        ["Formats"] = ["VirtualFiles", "Interop"],
        ["Routing"] = ["Merges", "Formats", "VirtualFiles", "Interop"],
        ["MergedCache"] = ["Formats", "VirtualFiles", "Interop"],
        // Entry merges (Persona's tables in Merges/Tables) are a capability registered as formats are: routing asks them (issue 49).
        ["Merges"] = ["Formats", "VirtualFiles", "Interop"],
        ["Serving"] = ["Routing", "MergedCache", "Merges", "Formats", "VirtualFiles", "Interop"],
        ["Api"] = ["Serving", "Routing", "MergedCache", "Merges", "Formats", "VirtualFiles", "Interop"],
        // The player's machine (Steam's libraries and records, Reloaded-II's setup under Wine): a leaf no folder above uses,
        // so the library mod loaders embed never scans the machine; only the CLI and the host reach it (issue 49).
        ["Machine"] = ["Serving", "Routing", "Interop"],
    };

    [GeneratedRegex(@"ArchiveEmu\.Core\.(?<folder>[A-Z][A-Za-z]+)\b")]
    private static partial Regex CoreReference();

    [Test]
    public void CoreFolders_ReferenceOnlyTheFoldersBelowThem()
    {
        var core = Path.Combine(RepositoryFiles.Root, "src", "ArchiveEmu.Core");
        var found = new List<string>();
        foreach (var (folder, allowed) in Allowed)
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(core, folder), "*.cs", SearchOption.AllDirectories))
            {
                foreach (Match m in CoreReference().Matches(File.ReadAllText(file)))
                {
                    string used = m.Groups["folder"].Value;
                    if (used != folder && Allowed.ContainsKey(used) && !allowed.Contains(used))
                        found.Add($"{Path.GetRelativePath(core, file)} uses {used}");
                }
            }
        }
        Assert.That(found.Distinct(), Is.Empty);
    }

    [Test]
    public void EveryCoreFolder_HasItsPlaceInTheOrder()
    {
        var core = Path.Combine(RepositoryFiles.Root, "src", "ArchiveEmu.Core");
        var folders = Directory.GetDirectories(core).Select(Path.GetFileName).Where(f => f is not ("bin" or "obj"));
        Assert.That(folders, Is.SubsetOf(Allowed.Keys), "a new folder needs a line in Allowed (and in docs/DESIGN.md)");
    }

    [Test]
    public void AllowedGraph_HasNoCycle()
    {
        var done = new HashSet<string>();
        void Visit(string folder, ImmutableStack path)
        {
            Assert.That(path.Contains(folder), Is.False, $"cycle through {folder}");
            if (!done.Add(folder))
                return;
            foreach (var next in Allowed[folder])
                Visit(next, path.Push(folder));
        }
        foreach (var folder in Allowed.Keys)
            Visit(folder, ImmutableStack.Empty);
    }

    private sealed record ImmutableStack(string? Top, ImmutableStack? Rest)
    {
        public static ImmutableStack Empty { get; } = new(null, null);
        public ImmutableStack Push(string folder) => new(folder, this);
        public bool Contains(string folder) => Top == folder || (Rest?.Contains(folder) ?? false);
    }
}
