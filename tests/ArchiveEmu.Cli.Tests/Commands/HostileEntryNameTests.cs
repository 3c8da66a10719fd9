using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Cli.Tests.Commands;

/// <summary>
/// Zip-slip and tar-slip (issue 7): originals whose entry names are "../x" or "/x". ArchiveEmu never writes an
/// entry to disk by its name, so such entries are served as the bytes they are, keep their names, and nothing
/// appears outside the output file — checked by listing the whole temp folder before and after.
/// </summary>
public sealed class HostileEntryNameTests
{
    private TempDirectory _dir = null!;

    [SetUp]
    public void CreateGame()
    {
        _dir = new TempDirectory("slip");
        Directory.CreateDirectory(_dir["work/game/data"]);
        ExternalTool.Python("""
import zipfile, tarfile, io, sys
names = ['../escape.bin', '/absolute.bin', 'ok/../../../deep.bin', 'plain.bin']
with zipfile.ZipFile(sys.argv[1] + '/slip.zip', 'w') as z:
    for i, n in enumerate(names):
        z.writestr(n, bytes([i]) * (100 + i))
with tarfile.open(sys.argv[1] + '/slip.tar', 'w', format=tarfile.PAX_FORMAT) as t:
    for i, n in enumerate(names):
        info = tarfile.TarInfo(n); info.size = 100 + i
        t.addfile(info, io.BytesIO(bytes([i]) * info.size))
""", _dir["work/game/data"]);
        _dir.Write("work/mod/data/slip.zip/plain.bin", [9, 9, 9]);
        _dir.Write("work/mod/data/slip.tar/plain.bin", [9, 9, 9]);
    }

    [TearDown]
    public void DeleteGame() => _dir.Dispose();

    [TestCase("data/slip.zip")]
    [TestCase("data/slip.tar")]
    public void SlipNames_AreServedAsBytes_AndNothingIsWrittenOutside(string archive)
    {
        var before = Listing();
        string[] game = ["--game", _dir["work/game"], "--mod", _dir["work/mod"], "--no-cache"];
        var build = CliRun.Run(["build", .. game]);
        var ls = CliRun.Run(["ls", .. game, archive]);
        var output = _dir["out.bin"];
        var cat = CliRun.Run(["cat", .. game, archive, "-o", output]);
        Assert.That((build.ExitCode, ls.ExitCode, cat.ExitCode), Is.EqualTo((0, 0, 0)), build + "\n" + ls + "\n" + cat);
        Assert.That(ls.Out, Does.Contain("../escape.bin").And.Contain("/absolute.bin"), "listed under their own names");

        Assert.That(Listing(), Is.EqualTo(before.Append(output).Order(StringComparer.Ordinal)), "only the -o file is new");
        var check = ExternalTool.Python("""
import zipfile, tarfile, sys
path = sys.argv[1]
if path.endswith('.bin') and zipfile.is_zipfile(path):
    a = zipfile.ZipFile(path); items = [(i.filename, a.read(i)) for i in a.infolist()]
else:
    a = tarfile.open(path); items = [(m.name, a.extractfile(m).read()) for m in a.getmembers()]
for name, data in items:
    print(name, len(data), data[:1].hex())
""", output);
        Assert.That(check.StdOut.Split('\n', StringSplitOptions.RemoveEmptyEntries), Is.EqualTo(new[]
        {
            "../escape.bin 100 00", "/absolute.bin 101 01", "ok/../../../deep.bin 102 02", "plain.bin 3 09",
        }));
    }

    private string[] Listing() =>
        Directory.EnumerateFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToArray();
}
