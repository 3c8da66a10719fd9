using System.IO.Compression;
using System.Xml.Linq;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Packaging;

/// <summary>
/// Runs the real <c>dotnet pack</c> of ArchiveEmu.Core once and checks what a mod loader's author would get:
/// the assembly with its XML docs, the README, the license expression, the dependencies and the symbols.
/// </summary>
[TestFixture]
[Category("Pack")]
[NonParallelizable] // one full Release build; running beside other tests only slows both on a small machine
public sealed class NuGetPackageTests
{
    private TempDirectory _output = null!;
    private string _nupkg = null!;
    private string _snupkg = null!;

    [OneTimeSetUp]
    public void PackOnce()
    {
        _output = new TempDirectory("pack");
        // --disable-build-servers: a build server left running would hold our redirected output open.
        var result = ExternalTool.RunIn(RepositoryFiles.Root, DotnetHost(),
            "pack", "src/ArchiveEmu.Core", "-c", "Release", "-o", _output.Path, "--disable-build-servers", "-nologo");
        Assert.That(result.ExitCode, Is.Zero, result.ToString);

        _nupkg = SinglePackage("*.nupkg");
        _snupkg = SinglePackage("*.snupkg");
    }

    [OneTimeTearDown]
    public void DeleteOutput() => _output?.Dispose();

    [Test]
    public void Package_HoldsTheAssemblyAndItsXmlDocs()
    {
        using var zip = ZipFile.OpenRead(_nupkg);
        Assert.That(EntryNames(zip), Does.Contain("lib/net10.0/ArchiveEmu.Core.dll").And.Contain("lib/net10.0/ArchiveEmu.Core.xml"));
        Assert.That(ReadText(zip, "lib/net10.0/ArchiveEmu.Core.xml"), Does.Contain("<name>ArchiveEmu.Core</name>"));
    }

    [Test]
    public void Package_HoldsTheLibraryReadme_AndTheNuspecPointsAtIt()
    {
        using var zip = ZipFile.OpenRead(_nupkg);
        string readme = File.ReadAllText(Path.Combine(RepositoryFiles.Root, "src", "ArchiveEmu.Core", "README.md"));
        Assert.That(ReadText(zip, "README.md"), Is.EqualTo(readme));
        Assert.That(NuspecElement(zip, "readme").Value, Is.EqualTo("README.md"));
    }

    [Test]
    public void Nuspec_DeclaresTheGplLicenseExpression()
    {
        using var zip = ZipFile.OpenRead(_nupkg);
        var license = NuspecElement(zip, "license");
        Assert.That(license.Attribute("type")?.Value, Is.EqualTo("expression"));
        Assert.That(license.Value, Is.EqualTo("GPL-3.0-or-later"));
    }

    [Test]
    public void Nuspec_DependsOnTheRuntimePackagesOnly_NotOnTheApiAnalyzer()
    {
        using var zip = ZipFile.OpenRead(_nupkg);
        var ids = Nuspec(zip).Descendants().Where(e => e.Name.LocalName == "dependency")
            .Select(e => e.Attribute("id")?.Value).ToArray();
        Assert.That(ids, Is.EquivalentTo(new[] { "K4os.Compression.LZ4", "System.IO.Hashing" }));
    }

    [Test]
    public void SymbolPackage_HoldsThePdb()
    {
        using var zip = ZipFile.OpenRead(_snupkg);
        Assert.That(EntryNames(zip), Does.Contain("lib/net10.0/ArchiveEmu.Core.pdb"));
    }

    private string SinglePackage(string pattern)
    {
        var found = Directory.GetFiles(_output.Path, pattern);
        Assert.That(found, Has.Length.EqualTo(1), $"{pattern} in {_output.Path}");
        return found[0];
    }

    private static string[] EntryNames(ZipArchive zip) => zip.Entries.Select(e => e.FullName).ToArray();

    private static string ReadText(ZipArchive zip, string name)
    {
        var entry = zip.GetEntry(name);
        Assert.That(entry, Is.Not.Null, $"{name} missing from the package");
        using var reader = new StreamReader(entry!.Open());
        return reader.ReadToEnd();
    }

    private static XDocument Nuspec(ZipArchive zip) => XDocument.Parse(ReadText(zip, "ArchiveEmu.Core.nuspec"));

    private static XElement NuspecElement(ZipArchive zip, string localName)
    {
        var element = Nuspec(zip).Descendants().FirstOrDefault(e => e.Name.LocalName == localName);
        Assert.That(element, Is.Not.Null, $"<{localName}> missing from the nuspec");
        return element!;
    }

    // The dotnet host that launched this test run when it says so, else the one on PATH.
    private static string DotnetHost() => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";

}
