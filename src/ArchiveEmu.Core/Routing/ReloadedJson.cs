using System.Text;
using System.Text.Json;
using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Reads a Reloaded-II JSON file (<c>ModConfig.json</c>, <c>AppConfig.json</c>, <c>ReloadedII.json</c>) as Reloaded-II does:
/// through a reader that detects a byte order mark (UTF-8, UTF-16 LE/BE, UTF-32; <c>IConfig.FromPath</c> in
/// Reloaded.Mod.Loader.IO reads with a <c>StreamReader</c>), UTF-8 without one, an invalid byte read as U+FFFD. Older
/// Reloaded-II versions wrote a BOM, and a name saved as Latin-1 ("Café") is such an invalid byte: System.Text.Json alone
/// refused the first and aborted on the second. Only a regular file of at most <see cref="MaxBytes"/> is read: downloaded mods
/// carry FIFOs (which hung the read) and links to devices (/dev/zero ran out of memory).
/// </summary>
internal static class ReloadedJson
{
    /// <summary>The largest file read: far above any config Reloaded-II writes (an app listing a million mods is 50 MB).</summary>
    public const int MaxBytes = 64 << 20;

    private static readonly JsonDocumentOptions Options = new() { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip };

    /// <summary>A file that is no JSON Reloaded-II reads: <see cref="Reason"/> says why, the message names the file too.</summary>
    public sealed class NotJson(string file, string reason) : IOException($"{file}: not valid JSON ({reason})")
    {
        public string Reason { get; } = reason;
    }

    /// <summary>
    /// The document in <paramref name="file"/>. Not a regular file, or too large: an <see cref="InvalidDataException"/> naming
    /// it and what it is; not JSON: <see cref="NotJson"/>; unreadable: the <see cref="IOException"/> or
    /// <see cref="UnauthorizedAccessException"/> of the file system.
    /// </summary>
    public static JsonDocument Read(string file)
    {
        var status = FileStatus.Of(file); // stat, links followed: a FIFO is refused before an open that would wait for a writer
        if (!status.IsRegularFile)
            throw new InvalidDataException($"{file}: {status.Kind}, not a regular file; not read");
        byte[] bytes;
        using (var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1))
        {
            if (stream.Length > MaxBytes)
                throw new InvalidDataException($"{file}: {stream.Length} bytes, more than a Reloaded-II file holds ({MaxBytes >> 20} MiB at most); not read");
            bytes = new byte[stream.Length];
            stream.ReadExactly(bytes);
        }
        return Parse(file, bytes);
    }

    /// <summary>The document in <paramref name="bytes"/> (the contents of <paramref name="file"/>), decoded as Reloaded-II decodes it.</summary>
    public static JsonDocument Parse(string file, byte[] bytes)
    {
        string text;
        using (var reader = new StreamReader(new MemoryStream(bytes), new UTF8Encoding(false, false), detectEncodingFromByteOrderMarks: true))
            text = reader.ReadToEnd();
        JsonDocument doc;
        try
        {
            doc = JsonDocument.Parse(text, Options);
        }
        catch (JsonException e)
        {
            throw new NotJson(file, e.Message.Split('\n')[0]);
        }
        // A lone surrogate escaped in a string ("\ud800") parses, then reading the string threw InvalidOperationException out of
        // every reader (found by fuzzing, issue 48); Reloaded-II's deserializer refuses such a file, so it is no JSON here either.
        if (LoneSurrogate(doc.RootElement) is { } reason)
        {
            doc.Dispose();
            throw new NotJson(file, reason);
        }
        return doc;
    }

    // The first string or field name that is no valid UTF-16 (JsonDocument nests 64 deep at most: the recursion is bounded).
    private static string? LoneSurrogate(JsonElement element)
    {
        try
        {
            switch (element.ValueKind)
            {
                case JsonValueKind.String:
                    _ = element.GetString();
                    break;
                case JsonValueKind.Array:
                    foreach (var item in element.EnumerateArray())
                        if (LoneSurrogate(item) is { } inItem)
                            return inItem;
                    break;
                case JsonValueKind.Object:
                    foreach (var property in element.EnumerateObject())
                    {
                        _ = property.Name; // a field's name can hold one too
                        if (LoneSurrogate(property.Value) is { } inValue)
                            return $"{property.Name}: {inValue}";
                    }
                    break;
            }
            return null;
        }
        catch (InvalidOperationException e) // a string, or a field's name, with half a surrogate pair
        {
            return e.Message;
        }
    }

    /// <summary>
    /// <paramref name="read"/> applied to each file in order; a file it cannot read adds one line to <paramref name="problems"/>
    /// and is skipped, as Reloaded-II skips it: not JSON, not a regular file, too large, or unreadable.
    /// <paramref name="what"/> names what is skipped ("the mod", "the app").
    /// </summary>
    public static List<T> ReadEach<T>(IEnumerable<string> files, Func<string, T> read, string what, List<string> problems)
    {
        var taken = new List<T>();
        foreach (var file in files)
        {
            try
            {
                taken.Add(read(file));
            }
            catch (NotJson e)
            {
                problems.Add($"{e.Message}; Reloaded-II skips it too");
            }
            catch (InvalidDataException e) // not a regular file, or too large: the message names the file
            {
                problems.Add($"{e.Message}; {what} is skipped");
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                problems.Add($"{file}: not read ({e.Message}); {what} is skipped");
            }
        }
        return taken;
    }

    /// <summary>The string field <paramref name="name"/> of an object, or null.</summary>
    public static string? Text(JsonElement root, string name) =>
        root.ValueKind == JsonValueKind.Object && root.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
}
