using System.CommandLine;
using System.Diagnostics;
using System.Security.Cryptography;
using ArchiveEmu.Cli.Options;
using ArchiveEmu.Cli.Output;

namespace ArchiveEmu.Cli.Commands;

/// <summary>
/// <c>archiveemu vfs MAP.json [-o FILE]</c>: builds the virtual file a segment map describes, reads it
/// three independent ways (sequential, seeded random pieces, stream), checks they agree and match the
/// map's SHA-256, and optionally writes the bytes out.
/// </summary>
internal sealed class VfsCommand : ICommand
{
    private readonly Argument<string> _map = new("MAP.json") { Description = "The JSON segment map (see fixtures/vfs/)" };
    private readonly Option<string> _output = new("-o", "--output") { Description = "Also write the virtual file's bytes to FILE (atomically)", HelpName = "FILE" };
    private readonly Option<bool> _force = new("--force") { Description = "Write -o even over the map or a file it reads" };

    public string Name => "vfs";
    public string Usage => "archiveemu vfs MAP.json [-o FILE [--force]]";

    public Command Define(CliConsole console)
    {
        var command = new Command(Name, "Build the virtual file a segment map describes, read it three ways and check it against the map");
        command.Arguments.Add(_map);
        command.Options.Add(_output);
        command.Options.Add(_force);
        return command.Runs(parse => Run(parse, console));
    }

    private int Run(ParseResult parse, CliConsole console)
    {
        var mapPath = parse.GetRequiredValue(_map);
        var clock = Stopwatch.StartNew();

        var map = SegmentMapFile.Load(mapPath);
        using var file = map.File;
        if (parse.GetValue(_output) is { } target && !parse.GetValue(_force))
            OutputFile.RequireOutside(target, [], file.Files.Select(f => f.Path).Append(map.Path));
        if (file.Length > int.MaxValue)
            throw new InvalidDataException($"{map.Path}: virtual file is {file.Length} bytes; vfs checks files under 2 GiB");

        var sequential = ReadSequential(file.Length, (o, s) => file.Read(o, s));
        var scattered = ReadScattered(file.Length, (o, s) => file.Read(o, s));
        var streamed = new byte[file.Length];
        using (var stream = file.OpenStream())
            stream.ReadExactly(streamed);

        string sha = Convert.ToHexStringLower(SHA256.HashData(sequential));
        bool agree = sequential.AsSpan().SequenceEqual(scattered) && sequential.AsSpan().SequenceEqual(streamed);
        bool matches = map.ExpectedSha256 is null || string.Equals(sha, map.ExpectedSha256, StringComparison.OrdinalIgnoreCase);

        console.Out.WriteLine($"map       {map.Path}");
        console.Out.WriteLine($"segments  {file.Segments.Length} ({file.Files.Count()} files)");
        console.Out.WriteLine($"length    {file.Length} bytes");
        console.Out.WriteLine($"sha256    {sha}");
        console.Out.WriteLine($"reads     sequential, random pieces and stream {(agree ? "agree" : "DISAGREE")}");
        if (map.ExpectedSha256 is not null)
            console.Out.WriteLine($"expected  {(matches ? "match" : $"MISMATCH (map says {map.ExpectedSha256})")}");

        if (parse.GetValue(_output) is { } output)
        {
            file.Dispose(); // its handles closed first: Windows will not rename over a source still open (-o onto it with --force)
            AtomicFile.Write(output, sequential);
        }
        console.Out.WriteLine($"time      {clock.Elapsed.TotalMilliseconds:F1} ms");

        if (agree && matches)
            return 0;
        console.Error.WriteLine($"archiveemu vfs: {map.Path}: the virtual file's bytes are not what the map says");
        return 1;
    }

    private static byte[] ReadSequential(long length, Func<long, Span<byte>, int> read)
    {
        var bytes = new byte[length];
        for (long at = 0; at < length;)
            at += read(at, bytes.AsSpan((int)at, (int)Math.Min(64 * 1024, length - at)));
        return bytes;
    }

    private static byte[] ReadScattered(long length, Func<long, Span<byte>, int> read)
    {
        // Random-sized pieces in a shuffled order: boundaries fall everywhere, not on segment edges.
        var random = new Random(20261122);
        var pieces = new List<(long At, int Count)>();
        for (long at = 0; at < length;)
        {
            int count = (int)Math.Min(random.Next(1, 9000), length - at);
            pieces.Add((at, count));
            at += count;
        }
        random.Shuffle(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(pieces));

        var bytes = new byte[length];
        foreach (var (at, count) in pieces)
            if (read(at, bytes.AsSpan((int)at, count)) != count)
                throw new IOException($"short read of {count} bytes at {at} inside a {length}-byte virtual file");
        return bytes;
    }
}
