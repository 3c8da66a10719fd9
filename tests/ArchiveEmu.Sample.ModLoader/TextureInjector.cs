using ArchiveEmu.Core;
using ArchiveEmu.Core.Formats;

namespace ArchiveEmu.Sample.ModLoader;

/// <summary>
/// What a texture mod loader does with ArchiveEmu: its mods' textures are files named by entry index
/// ("3.dds", "0005_hero.dds"); it injects them into a game archive through the API — no mod folder layout, no
/// mount — and hands the game a stream of the modded archive. Prints each entry and where it came from.
/// </summary>
public static class TextureInjector
{
    /// <summary>Injects every <c>N*.dds</c> in <paramref name="textureFolder"/> into <paramref name="archive"/> and writes the result.</summary>
    public static IReadOnlyList<EntryOrigin> Inject(string gameFolder, string archive, string textureFolder, string output, TextWriter log)
    {
        using var emulator = new ArchiveEmulator(gameFolder);
        emulator.RouteChanged += (_, e) => log.WriteLine($"changed: {e.Route} ({e.Reason})");

        foreach (var texture in Directory.EnumerateFiles(textureFolder, "*.dds").Order(StringComparer.Ordinal))
        {
            var digits = new string(Path.GetFileName(texture).TakeWhile(char.IsAsciiDigit).ToArray());
            if (digits.Length > 0)
                emulator.AddFile(archive, EntryKey.ByIndex(int.Parse(digits, System.Globalization.CultureInfo.InvariantCulture)), texture, "sample-loader");
        }

        using (var modded = emulator.OpenStream(archive))
        using (var file = File.Create(output))
            modded.CopyTo(file); // a game would read the stream directly; the sample saves it to check it

        var entries = emulator.Describe(archive);
        foreach (var e in entries)
            log.WriteLine($"{e.Index,3} {e.State,-8} {e.Size,8} {e.Origin}");
        return entries;
    }

    public static int Main(string[] args)
    {
        if (args.Length != 4)
        {
            Console.Error.WriteLine("usage: ArchiveEmu.Sample.ModLoader GAME_FOLDER ARCHIVE TEXTURE_FOLDER OUTPUT");
            return 2;
        }
        try
        {
            Inject(args[0], args[1], args[2], args[3], Console.Out);
            return 0;
        }
        catch (IOException e)
        {
            Console.Error.WriteLine(e.Message);
            return 1;
        }
    }
}
