using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Api;

/// <summary>Through the library, priority is the order mod folders are added in, never their names (entry 3 is the sample's conflict).</summary>
public sealed class ModPriorityApiTests
{
    private const string Afs = "data/textures.afs";
    private static readonly string Hd = RepositoryFiles.Fixture("mods/hd-textures");
    private static readonly string Ui = RepositoryFiles.Fixture("mods/ui-fix");

    private static (string Origin, string Sha256) Entry3(params string[] mods)
    {
        using var emulator = new ArchiveEmulator(RepositoryFiles.Fixture("game"));
        foreach (var mod in mods)
            emulator.AddModFolder(mod);
        using var temp = new TempDirectory("api-priority");
        var output = temp["out.afs"];
        using (var stream = emulator.OpenStream(Afs))
        using (var file = File.Create(output))
            stream.CopyTo(file);
        var origin = emulator.Describe(Afs).Single(e => e.Index == 3 && e.State != EntryState.Deleted).Origin;
        return (origin, AfsIndependentReader.Read(output)[3].Sha256);
    }

    private static string Sha(string mod, string file) => AfsIndependentReader.Sha256(File.ReadAllBytes(Path.Combine(mod, Afs, file)));

    [Test]
    public void AddModFolder_AgainstTheNameOrder_TheLaterAddedWins()
    {
        Assert.That(Entry3(Ui, Hd), Is.EqualTo(("hd-textures", Sha(Hd, "3.dds"))));
        Assert.That(Entry3(Hd, Ui), Is.EqualTo(("ui-fix", Sha(Ui, "3_button_sheet.dds"))));
    }
}
