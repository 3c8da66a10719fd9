using System.Text.Json;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Cli.Options;

/// <summary>
/// A virtual file described in JSON: <c>{"segments": [{"file": "a.bin", "offset": 0, "length": 16},
/// {"text": "HDR"}, {"zeros": 2048}], "sha256": "…"}</c>. File paths are relative to the map's folder and
/// may not leave it.
/// </summary>
internal sealed class SegmentMapFile
{
    private SegmentMapFile(string path, VirtualFile file, string? expectedSha256)
    {
        Path = path;
        File = file;
        ExpectedSha256 = expectedSha256;
    }

    public string Path { get; }
    public VirtualFile File { get; }
    public string? ExpectedSha256 { get; }

    public static SegmentMapFile Load(string mapPath, FileHandlePool? pool = null)
    {
        var fullMap = System.IO.Path.GetFullPath(mapPath);
        if (!System.IO.File.Exists(fullMap))
            throw new FileNotFoundException($"{fullMap}: segment map not found");
        var root = System.IO.Path.GetDirectoryName(fullMap)!;

        using var doc = ParseJson(fullMap);
        if (!doc.RootElement.TryGetProperty("segments", out var segments) || segments.ValueKind != JsonValueKind.Array)
            throw new InvalidDataException($"{fullMap}: no \"segments\" array");

        var builder = new VirtualFileBuilder(pool);
        int index = 0;
        foreach (var segment in segments.EnumerateArray())
        {
            string where = $"{fullMap}: segment {index++}";
            if (segment.TryGetProperty("file", out var file))
            {
                string source = ResolveInside(root, file.GetString() ?? "", where);
                long offset = segment.TryGetProperty("offset", out var o) ? o.GetInt64() : 0;
                long length = segment.TryGetProperty("length", out var l) ? l.GetInt64() : FileIdentity.Of(source).Length - offset;
                builder.AppendFile(source, offset, length);
            }
            else if (segment.TryGetProperty("text", out var text))
                builder.AppendBytes(System.Text.Encoding.UTF8.GetBytes(text.GetString() ?? ""));
            else if (segment.TryGetProperty("zeros", out var zeros))
                builder.AppendZeros(zeros.GetInt64());
            else
                throw new InvalidDataException($"{where}: needs one of \"file\", \"text\" or \"zeros\"");
        }

        string? sha = doc.RootElement.TryGetProperty("sha256", out var s) ? s.GetString() : null;
        return new SegmentMapFile(fullMap, builder.Build(), sha);
    }

    private static JsonDocument ParseJson(string path)
    {
        try
        {
            return JsonDocument.Parse(System.IO.File.ReadAllBytes(path));
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{path}: not valid JSON ({e.Message})");
        }
    }

    private static string ResolveInside(string root, string relative, string where)
    {
        if (relative.Length == 0 || System.IO.Path.IsPathRooted(relative))
            throw new InvalidDataException($"{where}: \"file\" must be a path relative to the map's folder, not '{relative}'");
        var full = System.IO.Path.GetFullPath(System.IO.Path.Combine(root, relative));
        if (!full.StartsWith(root + System.IO.Path.DirectorySeparatorChar, StringComparison.Ordinal))
            throw new InvalidDataException($"{where}: '{relative}' leads outside {root}");
        return full;
    }
}
