using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Architecture;

/// <summary>Every libc function is declared once across src/ (Core's LibC, else the host's): read from the source, so a second declaration shows up here.</summary>
public sealed partial class LibcDeclarationTests
{
    // [LibraryImport("libc", …)] or [DllImport("libc", …)], any attributes after it, then the method's name.
    [GeneratedRegex("""\[\s*(?:System\.Runtime\.InteropServices\.)?(?:LibraryImport|DllImport)(?:Attribute)?\(\s*"libc(?:\.so(?:\.\d+)?)?"(?<arguments>[^\]]*)\]\s*(?:\[[^\]]*\]\s*)*[^;{(]*?\b(?<method>\w+)\s*\(""")]
    private static partial Regex LibcImport();

    [GeneratedRegex("""EntryPoint\s*=\s*"(?<name>[^"]+)"\s*""")]
    private static partial Regex EntryPoint();

    /// <summary>The libc entry points declared in <paramref name="source"/> (the EntryPoint, else the method's name).</summary>
    internal static IEnumerable<string> EntryPoints(string source) =>
        LibcImport().Matches(source).Select(m => EntryPoint().Match(m.Groups["arguments"].Value) is { Success: true } entry
            ? entry.Groups["name"].Value
            : m.Groups["method"].Value);

    [Test]
    public void EveryLibcEntryPoint_IsDeclaredOnceInSrc()
    {
        var src = Path.Combine(RepositoryFiles.Root, "src");
        var declared = Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .SelectMany(f => EntryPoints(File.ReadAllText(f)).Select(name => (Name: name, File: Path.GetRelativePath(src, f))))
            .ToList();
        Assert.That(declared.Select(d => d.Name), Does.Contain("stat").And.Contain("open").And.Contain("geteuid"), "the scan finds the declarations");
        var twice = declared.GroupBy(d => d.Name).Where(g => g.Count() > 1)
            .Select(g => $"{g.Key}: {string.Join(", ", g.Select(d => d.File))}");
        Assert.That(twice, Is.Empty, "declare a libc function once (Core/Interop/LibC.cs) and call it there");
    }

    [Test]
    public void EntryPoints_ReadsBothAttributes_TheEntryPointOrElseTheMethodName()
    {
        const string source = """
            [LibraryImport("libc", EntryPoint = "stat", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
            public static partial int Stat(string path, byte* buffer);

            /// <summary>doc</summary>
            [DllImport("libc", SetLastError = true)]
            [return: MarshalAs(UnmanagedType.I4)]
            private static extern int close(int fd);

            [LibraryImport("libfuse3.so.3", EntryPoint = "fuse_exit")]
            public static partial void Exit(nint fuse);

            [LibraryImport("libc.so.6")]
            internal static partial uint geteuid();
            """;
        Assert.That(EntryPoints(source), Is.EqualTo(new[] { "stat", "close", "geteuid" }));
    }
}
