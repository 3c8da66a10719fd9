using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Tests.Formats.Cpk;
using ArchiveEmu.TestSupport;
using ArchiveEmu.TestSupport.Cri;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>Issue 21 through the library: a mirror mod replacing an entry of a named CPK, opened with <see cref="ArchiveEmulator"/>.</summary>
public sealed class CpkApiTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame() => _dir = new TempDirectory("api-cpk");

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [Test]
    public void ModFolder_ReplacesAnEntryOfANamedCpk_AndEveryOtherEntryIsTheOriginals()
    {
        var entries = CpkTestFiles.Named(compressSome: true);
        _dir.Write("game/data/data.cpk", CpkTestWriter.WriteNamed(entries, new CpkTestWriter.Options(Masked: true)));
        var tex = _dir.Write("mod/data/data.cpk/battle/tex.dds", TestData.Random(9, 2222));

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        Assert.That(emulator.Routes, Is.EqualTo(new[] { "data/data.cpk" }));
        using (var file = emulator.Open("data/data.cpk"))
        {
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            _dir.Write("out.cpk", bytes);
        }

        var read = CpkIndependentReader.Read(_dir["out.cpk"]);
        Assert.That(read.Masked, Is.True);
        var expected = entries.Select(e => CpkTestFiles.Sha(e.Content)).ToList();
        expected[0] = CpkTestFiles.Sha(File.ReadAllBytes(tex));
        Assert.That(read.Entries.Select(e => e.ContentSha256), Is.EqualTo(expected));
        Assert.That(emulator.Describe("data/data.cpk").Select(e => (e.Name, e.State)).Take(2),
            Is.EqualTo(new[] { ("battle/tex.dds", EntryState.Replaced), ("battle/zz.bin", EntryState.Original) }));
    }

    [Test]
    public void AnIdOnlyCpk_TakesInputsById_FromCodeAndFromAModFolder()
    {
        byte[] id0 = TestData.Random(1, 300), id3 = TestData.Random(2, 70000);
        _dir.Write("game/data/ids.cpk", CpkTestWriter.WriteIdOnly([new(0, id0), new(3, id3)]));
        var modded = _dir.Write("mod/data/ids.cpk/0_face.bin", TestData.Random(3, 1000));
        var fromCode = TestData.Random(4, 555);

        using var emulator = new ArchiveEmulator(_dir["game"]);
        emulator.AddModFolder(_dir["mod"]);
        emulator.AddBytes("data/ids.cpk", EntryKey.ByIndex(3), fromCode, "loader");
        var byName = Assert.Throws<ArgumentException>(() => emulator.AddBytes("data/ids.cpk", EntryKey.ByName("3"), fromCode, "loader"));
        Assert.That(byName!.Message, Does.Contain("ID-only cpk entries are addressed by ID"));
        using (var file = emulator.Open("data/ids.cpk"))
        {
            var bytes = new byte[file.Length];
            file.ReadExactly(0, bytes);
            _dir.Write("out.cpk", bytes);
        }

        var read = CpkIndependentReader.Read(_dir["out.cpk"]);
        Assert.That(read.Entries.Select(e => (e.Id, e.ContentSha256)), Is.EqualTo(new[]
        {
            (0L, CpkTestFiles.Sha(File.ReadAllBytes(modded))), (3L, CpkTestFiles.Sha(fromCode)),
        }));
    }
}
