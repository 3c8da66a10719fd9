using System.Text;

namespace ArchiveEmu.Core.Tests.Fuzzing;

/// <summary>
/// Mutations of a JSON file (issue 48), besides <see cref="Mutator"/>'s bytes: tokens put where the grammar does not expect them,
/// byte order marks inside or at the front, lone surrogates and NULs escaped or raw, nesting far deeper than readers allow, long
/// strings and numbers out of range. Deterministic: one seed, one mutant.
/// </summary>
internal static class JsonMutator
{
    private static readonly byte[][] Pieces =
    [
        .. new[] { "{", "}", "[", "]", "\"", ",", ":", "null", "true", "false", "0", "-0", "1e400", "-9223372036854775809", "\"\"",
            "\\u0000", "\\ud800", "\\udc00\\ud800", "\\", "//", "/*", "*/", "\n", "{\"\":null}", "[null]", "\"ModId\":", "\"mods\":",
            "\"options\":", "\"AppLocation\":", "\"EnabledMods\":", "\"ModDependencies\":", "\"C:\\\\\"", "\"Z:\\\\..\\\\..\"", "\"/\"", "\"..\"" }
            .Select(Encoding.UTF8.GetBytes),
        [0], [0xFF], [0xC3], [0xE9], [0xED, 0xA0, 0x80], // raw NUL, invalid UTF-8, a Latin-1 é, a UTF-8-encoded surrogate
        [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0xFF, 0xFE, 0, 0], [0, 0, 0xFE, 0xFF], // byte order marks
    ];

    public static (string Kind, byte[] Bytes) Mutate(byte[] original, int seed)
    {
        var random = new Random(seed);
        if (random.Next(3) == 0)
            return Mutator.Mutate(original, random.Next());
        var bytes = new List<byte>(original);
        string kind = random.Next(10) switch
        {
            0 => "deep",
            1 => "long",
            _ => "tokens",
        };
        int At() => random.Next(bytes.Count + 1);
        switch (kind)
        {
            case "deep":
                int depth = random.Next(60, 5000);
                bytes.InsertRange(At(), Encoding.UTF8.GetBytes(new string(random.Next(2) == 0 ? '[' : '{', depth)));
                break;
            case "long":
                bytes.InsertRange(At(), Encoding.UTF8.GetBytes(new string('a', random.Next(1000, 200_000))));
                break;
            default:
                for (int n = random.Next(1, 5); n > 0; n--)
                {
                    int at = At();
                    if (random.Next(4) == 0 && at < bytes.Count)
                        bytes.RemoveRange(at, Math.Min(bytes.Count - at, random.Next(1, 8))); // replaced, not only inserted
                    bytes.InsertRange(Math.Min(at, bytes.Count), Pieces[random.Next(Pieces.Length)]);
                }
                break;
        }
        return (kind, [.. bytes]);
    }
}
