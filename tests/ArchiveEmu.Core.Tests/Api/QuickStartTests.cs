using System.Text.RegularExpressions;
using ArchiveEmu.TestSupport;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>
/// docs/API.md's quick start and the NuGet readme's usage compile against Core's public API (a compilation of its own, so no
/// internals are visible).
/// </summary>
public sealed partial class QuickStartTests
{
    [GeneratedRegex(@"^## Quick start\s+```csharp\n(?<code>.*?)\n```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex QuickStartBlock();

    [GeneratedRegex(@"^## Usage\s+.*?```csharp\n(?<code>.*?)\n```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex UsageBlock();

    [GeneratedRegex(@"^## Library API \(for mod loaders\).*?```csharp\n(?<code>.*?)\n```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex ReadmeLibraryBlock();

    [GeneratedRegex(@"^\*\*In the library\*\*.*?```csharp\n(?<code>.*?)\n```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex DesignLibraryBlock();

    [GeneratedRegex(@"^using [A-Za-z][A-Za-z0-9.]*;(\s*//.*)?$")] // a namespace using, with or without a comment
    private static partial Regex UsingDirective();

    [Test]
    public void QuickStart_InDocsApi_CompilesAgainstThePublicApi()
    {
        var errors = Compile(QuickStart());
        Assert.That(errors, Is.Empty);
    }

    [Test]
    public void Usage_InTheNuGetReadme_CompilesAgainstThePublicApi()
    {
        var errors = Compile(CodeBlock(Path.Combine("src", "ArchiveEmu.Core", "README.md"), UsageBlock(), "## Usage"));
        Assert.That(errors, Is.Empty);
    }

    [TestCase("README.md", "## Library API (for mod loaders)")]
    [TestCase("docs/DESIGN.md", "**In the library**")]
    public void ReportExample_CompilesAgainstThePublicApi(string file, string section)
    {
        var errors = Compile(CodeBlock(file, file == "README.md" ? ReadmeLibraryBlock() : DesignLibraryBlock(), section));
        Assert.That(errors, Is.Empty);
    }

    [Test]
    public void QuickStart_WithAMemberThatIsNotPublic_DoesNotCompile()
    {
        // The check can fail: an internal member (ArchiveEmulator.Server) is refused like a typo.
        var errors = Compile(QuickStart() + "\nvar server = emulator.GameFolder.Length + emulator.Server().Mods.Count;");
        Assert.That(errors, Has.Some.Contains("CS1061").Or.Some.Contains("CS0122"));
    }

    private static string QuickStart() => CodeBlock(Path.Combine("docs", "API.md"), QuickStartBlock(), "## Quick start");

    private static string CodeBlock(string file, Regex block, string section)
    {
        var doc = File.ReadAllText(Path.Combine(RepositoryFiles.Root, file)).ReplaceLineEndings("\n");
        var match = block.Match(doc);
        Assert.That(match.Success, Is.True, $"{file} has a '{section}' section with a csharp block");
        return match.Groups["code"].Value;
    }

    // What `dotnet new console` projects import implicitly (ImplicitUsings), which the quick start relies on like any reader's project.
    private const string ImplicitUsings = "global using System;\nglobal using System.Collections.Generic;\nglobal using System.IO;\n"
        + "global using System.Linq;\nglobal using System.Net.Http;\nglobal using System.Threading;\nglobal using System.Threading.Tasks;\n";

    // Usings first, the statements inside a method, so the sample compiles as a library.
    private static List<string> Compile(string code)
    {
        var lines = code.Split('\n');
        var usings = lines.Where(l => UsingDirective().IsMatch(l.Trim()));
        var body = lines.Where(l => !UsingDirective().IsMatch(l.Trim()));
        var source = $"{string.Join('\n', usings)}\ninternal static class QuickStart\n{{\n    public static void Run()\n    {{\n{string.Join('\n', body)}\n    }}\n}}\n";
        var references = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Where(p => !Path.GetFileName(p).StartsWith("ArchiveEmu.", StringComparison.Ordinal))
            .Append(typeof(ArchiveEmulator).Assembly.Location)
            .Select(p => MetadataReference.CreateFromFile(p));
        var compilation = CSharpCompilation.Create("QuickStart", [CSharpSyntaxTree.ParseText(ImplicitUsings), CSharpSyntaxTree.ParseText(source)], references,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        using var output = new MemoryStream();
        var result = compilation.Emit(output);
        return result.Diagnostics.Where(d => d.Severity == DiagnosticSeverity.Error).Select(d => d.ToString()).ToList();
    }
}
