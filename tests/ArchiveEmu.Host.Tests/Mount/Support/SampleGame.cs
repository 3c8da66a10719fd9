using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Host.Tests.Mount.Support;

/// <summary>
/// A writable copy of fixtures/ (game + hd-textures + ui-fix; hd-textures also changes data/data.cpk, a CPK; the game's
/// models/gta3.img + .dir and data/hud.spd no mod of these two touches) plus a tar archive and a mod for it, a cache
/// folder and an empty mount point, all in one temp folder. What a mount should serve comes from <see cref="IndependentContent"/>.
/// </summary>
internal sealed class SampleGame : IDisposable
{
    private readonly TempDirectory _temp;

    /// <param name="parent">Where the temp folder goes (another file system's folder); the system temp folder when null.</param>
    public SampleGame(string? parent = null)
    {
        _temp = new TempDirectory("mount", parent);
        Copy(RepositoryFiles.Fixture("game"), Game);
        Copy(RepositoryFiles.Fixture("mods/hd-textures"), Path.Combine(Root, "mods", "hd-textures"));
        Copy(RepositoryFiles.Fixture("mods/ui-fix"), Path.Combine(Root, "mods", "ui-fix"));

        // A tar the mods change: member b.txt replaced, c.txt added.
        _temp.Write("tar-src/a.txt", "alpha\n"u8.ToArray());
        _temp.Write("tar-src/b.txt", "bravo\n"u8.ToArray());
        var tar = ExternalTool.Run("tar", "--format=ustar", "-cf", Path.Combine(Game, "data", "bundle.tar"), "-C", _temp["tar-src"], "a.txt", "b.txt");
        Assert.That(tar.ExitCode, Is.Zero, tar.ToString());
        _temp.Write("mods/ui-fix/data/bundle.tar/b.txt", "bravo, modded\n"u8.ToArray());
        _temp.Write("mods/ui-fix/data/bundle.tar/c.txt", "charlie, added\n"u8.ToArray());
        _temp.Write("mods/ui-fix/extras/new-folder/added.txt", "a file only a mod has\n"u8.ToArray());
        Directory.CreateDirectory(MountPoint);
        Directory.CreateDirectory(Cache);
    }

    public string Root => _temp.Path;
    public string Game => _temp["game"];
    public string MountPoint => _temp["mnt"];
    public string Cache => _temp["cache"];
    public string[] Mods => [_temp["mods/hd-textures"], _temp["mods/ui-fix"]];

    /// <summary>Every path a reader of the mount sees, relative, '/' separators.</summary>
    public string[] VisibleFiles =>
    [
        "data/bundle.tar", "data/data.cpk", "data/hud.spd", "data/readme.txt", "data/textures.afs", "data/ui.zip", "data/voice.afs",
        "extras/new-folder/added.txt", "models/gta3.dir", "models/gta3.img",
    ];

    /// <summary>The host's configuration arguments for this game.</summary>
    public string[] HostArgs(string merge, params string[] extra) =>
    [
        $"--ArchiveEmu:Game={Game}", $"--ArchiveEmu:Mods:0={Mods[0]}", $"--ArchiveEmu:Mods:1={Mods[1]}",
        $"--ArchiveEmu:MountPoint={MountPoint}", $"--ArchiveEmu:Cache={Cache}", $"--ArchiveEmu:Merge={merge}",
        "--ArchiveEmu:ReloadDebounceMs=100", .. extra,
    ];

    /// <summary>
    /// Starts <c>archiveemu mount</c> of this game with both mods and its cache at <see cref="MountPoint"/>, not waiting;
    /// <paramref name="options"/> go before the mount point.
    /// </summary>
    public HostProcess StartMount(params string[] options) =>
        HostProcess.StartCli(MountPoint, ["mount", "--game", Game, "--mod", Mods[0], "--mod", Mods[1], "--cache", Cache, .. options, MountPoint]);

    /// <summary>
    /// Mounts over the game folder itself and waits until served: with the kernel transport through
    /// <c>archiveemu mount --in-place</c>, with libfuse through the host's settings.
    /// </summary>
    public HostProcess StartInPlace(string fuse, string merge = "never") => (fuse == "kernel"
        ? HostProcess.StartCli(Game, "mount", "--game", Game, "--mod", Mods[0], "--mod", Mods[1], "--cache", Cache, "--merge", merge, "--in-place")
        : HostProcess.StartHost(Game, [.. HostArgs(merge, "--ArchiveEmu:Fuse=libfuse", "--ArchiveEmu:InPlace=true")
            .Where(a => !a.StartsWith("--ArchiveEmu:MountPoint=", StringComparison.Ordinal))])).WaitMounted();

    /// <summary>
    /// Asserts the file at <paramref name="served"/> (read through a mount, or copied out of one) holds what the mods make of
    /// <paramref name="relative"/> of <paramref name="game"/> (default <see cref="Game"/>; a copy while a mount covers the game
    /// in place), by <see cref="IndependentContent"/>: independent readers on both sides, never <c>archiveemu cat</c>.
    /// </summary>
    public void AssertServes(string relative, string served, string? game = null) =>
        Assert.That(IndependentContent.Of(relative, served), Is.EqualTo(Expected(relative, game)), $"{relative} as served at {served}");

    /// <summary>As <see cref="AssertServes(string, string, string?)"/> for bytes already read.</summary>
    public void AssertServes(string relative, byte[] served, string? game = null)
    {
        var copy = _temp.Write($"served-{Guid.NewGuid():N}{Path.GetExtension(relative)}", served);
        try
        {
            AssertServes(relative, copy, game);
        }
        finally
        {
            File.Delete(copy);
        }
    }

    /// <summary>
    /// <c>archiveemu cat</c>'s bytes for <paramref name="relative"/> (emulation, no cache), first checked by
    /// <see cref="AssertServes(string, string, string?)"/>: for a test that needs one version's exact bytes (to tell versions
    /// apart byte for byte) without taking the product's word for what they hold.
    /// </summary>
    public byte[] CheckedCat(string relative)
    {
        var output = _temp[$"cat-{Guid.NewGuid():N}{Path.GetExtension(relative)}"];
        var result = ArchiveEmuProgram.Run("cat", "--game", Game, "--mod", Mods[0], "--mod", Mods[1], "--no-cache", relative, "-o", output);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        AssertServes(relative, output);
        var bytes = File.ReadAllBytes(output);
        File.Delete(output);
        return bytes;
    }

    /// <summary>Whether the file at <paramref name="served"/> holds what the mods make of <paramref name="relative"/> now (false while it cannot be read): to wait for a reload.</summary>
    public bool Serves(string relative, string served, string? game = null) =>
        IndependentContent.TryOf(relative, served)?.SequenceEqual(Expected(relative, game)) == true;

    /// <summary>What <see cref="IndependentContent"/> expects at <paramref name="relative"/> with the mods as they are now.</summary>
    public string[] Expected(string relative, string? game = null) => IndependentContent.Expected(relative, game ?? Game, Mods);

    /// <summary>
    /// Issue 17's layout: the game's data on a "disk2" folder outside the game, symlinks left behind — data/textures.afs (a
    /// modded archive) by a relative link, data/voice.afs (untouched) by an absolute one, movies/ a folder link holding a tar
    /// ui-fix changes through the link's name, an untouched ZIP and a plain file; data/gone.afs leads nowhere.
    /// </summary>
    public static readonly string[] VisibleFilesWithLinks =
    [
        "data/bundle.tar", "data/data.cpk", "data/hud.spd", "data/readme.txt", "data/textures.afs", "data/ui.zip", "data/voice.afs",
        "extras/new-folder/added.txt", "models/gta3.dir", "models/gta3.img", "movies/credits.tar", "movies/intro.zip", "movies/notes.txt",
    ];

    /// <summary>Moves the data to <see cref="SecondDisk"/> behind symlinks (<see cref="VisibleFilesWithLinks"/>).</summary>
    public void MoveDataBehindSymlinks()
    {
        Directory.CreateDirectory(Path.Combine(SecondDisk, "movies"));
        File.Move(Path.Combine(Game, "data/textures.afs"), Path.Combine(SecondDisk, "textures.afs"));
        File.CreateSymbolicLink(Path.Combine(Game, "data/textures.afs"), "../../disk2/textures.afs");
        File.Move(Path.Combine(Game, "data/voice.afs"), Path.Combine(SecondDisk, "voice.afs"));
        File.CreateSymbolicLink(Path.Combine(Game, "data/voice.afs"), Path.Combine(SecondDisk, "voice.afs"));
        File.Copy(Path.Combine(Game, "data/bundle.tar"), Path.Combine(SecondDisk, "movies/credits.tar"));
        File.Copy(Path.Combine(Game, "data/ui.zip"), Path.Combine(SecondDisk, "movies/intro.zip"));
        File.WriteAllText(Path.Combine(SecondDisk, "movies/notes.txt"), "subtitles on\n");
        _temp.Write("mods/ui-fix/movies/credits.tar/c.txt", "charlie, through the link\n"u8.ToArray());
        Directory.CreateSymbolicLink(Path.Combine(Game, "movies"), Path.Combine(SecondDisk, "movies"));
        File.CreateSymbolicLink(Path.Combine(Game, "data/gone.afs"), Path.Combine(SecondDisk, "missing.afs"));
    }

    /// <summary>Where <see cref="MoveDataBehindSymlinks"/> puts the game's data: outside game, mods and mount point.</summary>
    public string SecondDisk => _temp["disk2"];

    public string Mounted(string relative) => Path.Combine(MountPoint, relative);

    /// <summary>Writes a file in the game's temp folder (outside game, mods and mount point); returns its path.</summary>
    public string Write(string relative, byte[] bytes) => _temp.Write(relative, bytes);

    /// <summary>A copy of the game folder as it is now (outside game, mods and mount point); returns its path.</summary>
    public string CopyGame(string name)
    {
        Copy(Game, _temp[name]);
        return _temp[name];
    }

    /// <summary>Every file under <paramref name="folder"/> (relative path) with the SHA-256 of its bytes: to show nothing was written.</summary>
    public static Dictionary<string, string> Hashes(string folder) =>
        Directory.EnumerateFiles(folder, "*", SearchOption.AllDirectories).ToDictionary(
            f => Path.GetRelativePath(folder, f), f => Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(File.ReadAllBytes(f))));

    private static void Copy(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }

    public void Dispose() => _temp.Dispose();
}
