using System.IO.Hashing;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using ArchiveEmu.Core.MergedCache.Index;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.MergedCache.Packs;

/// <summary>A stretch of a pack whose chunks were checked against their hashes.</summary>
internal readonly record struct VerifiedSpan(long Offset, long Length);

/// <summary>The spans of one pack checked while the pack had <paramref name="Identity"/>.</summary>
internal sealed record VerifiedPack(FileIdentity Identity, List<VerifiedSpan> Spans);

/// <summary>
/// <c>verified.bin</c> beside the index: which merged extents were hash-checked (written from memory by a writer, or
/// read back by <c>cache verify</c>), in which boot and while each pack had which identity (size, mtime, ctime, inode).
/// A reader trusts an extent, and skips its chunk hashes, only when the boot and the identity of the pack it opened
/// still match: any write to a pack (a flipped byte, another file renamed over it, a truncation) moves its ctime, and
/// an append carries the old spans forward only from the identity they were recorded under. Written only under the
/// writer lock, atomically; missing, damaged or of another boot it trusts nothing, and every chunk is checked as before.
/// </summary>
internal sealed partial class VerifiedExtents
{
    public const string FileName = "verified.bin";
    private const int Version = 1;
    private static ReadOnlySpan<byte> Magic => "AEMCVRFD"u8;
    // Source-generated, as the cache index's: read at every start.
    private static JsonTypeInfo<Payload> Json => PayloadJson.Default.Payload;

    [JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower)]
    [JsonSerializable(typeof(Payload))]
    private sealed partial class PayloadJson : JsonSerializerContext;

    private sealed record Payload(string Boot, Dictionary<string, VerifiedPack> Packs);

    private readonly Payload _payload;

    private VerifiedExtents(Payload payload) => _payload = payload;

    /// <summary>The record in <paramref name="folder"/> if it was made in <paramref name="boot"/>, else an empty one for it.</summary>
    public static VerifiedExtents Load(string folder, string boot)
    {
        try
        {
            var payload = Parse(MergedFileCache.ReadSharingDelete(Path.Combine(folder, FileName)));
            if (payload.Boot == boot)
                return new VerifiedExtents(payload);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException or JsonException)
        {
            // nothing recorded, or not readable: nothing is trusted, every chunk gets checked
        }
        return new VerifiedExtents(new Payload(boot, new Dictionary<string, VerifiedPack>(StringComparer.Ordinal)));
    }

    /// <summary>Whether the span was checked while <paramref name="pack"/> had exactly <paramref name="identity"/>.</summary>
    public bool Covers(string pack, FileIdentity identity, VerifiedSpan span) =>
        _payload.Packs.TryGetValue(pack, out var record) && record.Identity == identity && record.Spans.Contains(span);

    /// <summary>
    /// A writer appended to <paramref name="pack"/>, which had <paramref name="before"/> just before and has
    /// <paramref name="after"/> now (after its fsync). The spans recorded earlier stay only if they were recorded under
    /// <paramref name="before"/>: otherwise someone else changed the pack in between and they lose their trust.
    /// </summary>
    public void Appended(string pack, FileIdentity before, FileIdentity after, VerifiedSpan? written)
    {
        var spans = _payload.Packs.TryGetValue(pack, out var record) && record.Identity == before ? record.Spans : [];
        if (written is { } span && !spans.Contains(span))
            spans.Add(span);
        _payload.Packs[pack] = new VerifiedPack(after, spans);
    }

    /// <summary>
    /// Spans of <paramref name="pack"/> read back and found whole while it had <paramref name="checkedAt"/>; recorded only
    /// if the pack still has that identity <paramref name="now"/> (the caller holds the writer lock, so no append is under way).
    /// </summary>
    public void Checked(string pack, FileIdentity checkedAt, FileIdentity now, IEnumerable<VerifiedSpan> spans)
    {
        if (checkedAt != now)
            return;
        Appended(pack, checkedAt, checkedAt, null);
        foreach (var span in spans.Where(s => !_payload.Packs[pack].Spans.Contains(s)))
            _payload.Packs[pack].Spans.Add(span);
    }

    /// <summary>Forgets packs not in <paramref name="existing"/> (deleted by gc or clear).</summary>
    public void KeepOnly(IEnumerable<string> existing)
    {
        var keep = existing.ToHashSet(StringComparer.Ordinal);
        foreach (var pack in _payload.Packs.Keys.Where(p => !keep.Contains(p)).ToArray())
            _payload.Packs.Remove(pack);
    }

    /// <summary>The record's bytes: magic, u32 version, u32 reserved, i64 length, JSON, u64 xxHash3 of the JSON.</summary>
    public byte[] Serialize()
    {
        byte[] json = JsonSerializer.SerializeToUtf8Bytes(_payload, Json);
        return CacheEnvelope.Seal(Magic, Version, json);
    }

    private static Payload Parse(ReadOnlySpan<byte> bytes)
    {
        string? why = CacheEnvelope.Open(bytes, Magic, Version, out var sealedJson, out _) switch
        {
            EnvelopeProblem.NotOne or EnvelopeProblem.OtherVersion => "not a record of verified extents of this version",
            EnvelopeProblem.WrongLength => "record of verified extents is truncated",
            EnvelopeProblem.WrongChecksum => "record of verified extents fails its checksum",
            _ => null,
        };
        if (why is not null)
            throw new InvalidDataException(why);
        var json = bytes[sealedJson];
        var payload = JsonSerializer.Deserialize(json, Json) ?? throw new InvalidDataException("empty record");
        // JSON nulls pass the checksum and the nullable annotations alike (found by fuzzing: a null pack was used).
        if (payload.Packs?.Values.Any(p => p?.Spans is null) == true)
            throw new InvalidDataException("record of verified extents lists a pack without spans");
        return payload with { Packs = new Dictionary<string, VerifiedPack>(payload.Packs ?? [], StringComparer.Ordinal) };
    }
}
