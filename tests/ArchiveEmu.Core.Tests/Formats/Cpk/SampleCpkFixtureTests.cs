using System.Security.Cryptography;
using ArchiveEmu.Core.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Formats.Cpk;

/// <summary>
/// fixtures/game/data/data.cpk's field/sky.dds is CRILAYLA-compressed by fixtures/make_fixtures.py (Python, from the format
/// facts): the product's decoder and the tests' independent one must give the same content from it.
/// </summary>
public sealed class SampleCpkFixtureTests
{
    [Test]
    public void TheFixturesCompressedEntry_DecodesAlike_ByTheProductAndTheIndependentReader()
    {
        var path = RepositoryFiles.Fixture("game/data/data.cpk");
        var sky = CpkIndependentReader.Read(path).Entries.Single(e => e.Path == "field/sky.dds");
        Assert.That(sky.Compressed, Is.True);

        var stored = File.ReadAllBytes(path).AsSpan((int)sky.Offset, (int)sky.FileSize);
        var content = Crilayla.Decode(stored, "field/sky.dds");

        Assert.That(content, Has.Length.EqualTo(sky.ExtractSize));
        Assert.That(Convert.ToHexStringLower(SHA256.HashData(content)), Is.EqualTo(sky.ContentSha256));
        Assert.That(content.AsSpan(0, 13).ToArray(), Is.EqualTo("cpk-field-sky"u8.ToArray()), "the script's tag, from the raw prefix");
    }
}
