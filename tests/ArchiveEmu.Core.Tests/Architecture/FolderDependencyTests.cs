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
        // A virtual file written out as one real file: the copy-on-write clone and the plain copy (the mount chooses between them).
        ["RealFiles"] = ["Formats", "VirtualFiles", "Interop"],
        // Entry merges (Persona's tables in Merges/Tables) are a capability registered as formats are: routing asks them (issue 49).
        ["Merges"] = ["Formats", "VirtualFiles", "Interop"],
        ["Serving"] = ["Routing", "MergedCache", "Merges", "Formats", "VirtualFiles", "Interop"],
        ["Api"] = ["Serving", "Routing", "MergedCache", "Merges", "Formats", "VirtualFiles", "Interop"],
        // The player's machine (Steam's libraries and records, Reloaded-II's setup under Wine): a leaf no folder above uses,
        // so the library mod loaders embed never scans the machine; only the CLI and the host reach it (issue 49).
        ["Machine"] = ["Serving", "Routing", "Interop"],
    };

    // The CLI's folders (issue 49): commands on top; the arguments they take (Options), what they write (Output), how ls and cat
    // find an archive (Archives), run's child, log and notice (Running), saved profiles, the doctor's checks, bench, and the
    // release server's layout and the update (Release, issue 51) below.
    // Files at a project's root (Program, the console) may use every folder.
    private static readonly Dictionary<string, string[]> CliAllowed = new()
    {
        ["Archives"] = [],
        ["Output"] = ["Archives"],
        ["Profiles"] = ["Output"],
        ["Running"] = ["Profiles"],
        ["Options"] = ["Profiles", "Output"],
        ["Doctor"] = [],
        ["Bench"] = ["Options", "Output"],
        ["Release"] = [],
        ["Commands"] = ["Options", "Output", "Archives", "Running", "Profiles", "Doctor", "Bench", "Release"],
    };

    // The host's folders: the libc calls, the FUSE transports, the modded file system, and what a command asks of the host.
    private static readonly Dictionary<string, string[]> HostAllowed = new()
    {
        ["Interop"] = [],
        ["Fuse"] = ["Interop"],
        ["Mount"] = ["Fuse", "Interop"],
        ["Requests"] = [],
    };

    private static IEnumerable<TestCaseData> Projects()
    {
        yield return new TestCaseData("ArchiveEmu.Core", Allowed).SetArgDisplayNames("Core");
        yield return new TestCaseData("ArchiveEmu.Cli", CliAllowed).SetArgDisplayNames("Cli");
        yield return new TestCaseData("ArchiveEmu.Host", HostAllowed).SetArgDisplayNames("Host");
    }

    // ArchiveEmu.Cli.Options, or a folder named from within the project's namespace (Fuse.Kernel.KernelMount).
    private static Regex Reference(string project, IEnumerable<string> folders) =>
        new($@"{Regex.Escape(project)}\.(?<folder>[A-Z][A-Za-z]+)\b|(?<![.\w])(?<folder>{string.Join('|', folders)})\.[A-Z]");

    [TestCaseSource(nameof(Projects))]
    public void Folders_ReferenceOnlyTheFoldersBelowThem(string project, Dictionary<string, string[]> allowedMap)
    {
        var root = Path.Combine(RepositoryFiles.Root, "src", project);
        var reference = Reference(project, allowedMap.Keys);
        var found = new List<string>();
        foreach (var (folder, allowed) in allowedMap)
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(root, folder), "*.cs", SearchOption.AllDirectories))
            {
                foreach (Match m in reference.Matches(File.ReadAllText(file)))
                {
                    string used = m.Groups["folder"].Value;
                    if (used != folder && allowedMap.ContainsKey(used) && !allowed.Contains(used))
                        found.Add($"{Path.GetRelativePath(root, file)} uses {used}");
                }
            }
        }
        Assert.That(found.Distinct(), Is.Empty);
    }

    [TestCaseSource(nameof(Projects))]
    public void EveryFolder_HasItsPlaceInTheOrder(string project, Dictionary<string, string[]> allowedMap)
    {
        var root = Path.Combine(RepositoryFiles.Root, "src", project);
        var folders = Directory.GetDirectories(root).Select(Path.GetFileName).Where(f => f is not ("bin" or "obj" or "Properties"));
        Assert.That(folders, Is.SubsetOf(allowedMap.Keys), "a new folder needs a line in its Allowed map (and in docs/DESIGN.md)");
    }

    [TestCaseSource(nameof(Projects))]
    public void AllowedGraph_HasNoCycle(string project, Dictionary<string, string[]> allowedMap)
    {
        var done = new HashSet<string>();
        void Visit(string folder, ImmutableStack path)
        {
            Assert.That(path.Contains(folder), Is.False, $"{project}: cycle through {folder}");
            if (!done.Add(folder))
                return;
            foreach (var next in allowedMap[folder])
                Visit(next, path.Push(folder));
        }
        foreach (var folder in allowedMap.Keys)
            Visit(folder, ImmutableStack.Empty);
    }

    [Test]
    public void CliCommands_HoldOnlyCommands()
    {
        var commands = Path.Combine(RepositoryFiles.Root, "src", "ArchiveEmu.Cli", "Commands");
        Assert.That(Directory.EnumerateFiles(commands, "*.cs").Select(Path.GetFileName), Is.All.EndsWith("Command.cs"));
    }

    private sealed record ImmutableStack(string? Top, ImmutableStack? Rest)
    {
        public static ImmutableStack Empty { get; } = new(null, null);
        public ImmutableStack Push(string folder) => new(folder, this);
        public bool Contains(string folder) => Top == folder || (Rest?.Contains(folder) ?? false);
    }
}
