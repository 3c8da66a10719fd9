using System.Buffers.Binary;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace ArchiveEmu.Core.MergedCache.Index;

/// <summary>Versions and magic numbers of the cache's files on disk.</summary>
internal static class CacheFormat
{
    /// <summary>
    /// Bumped whenever a file layout or a builder's output changes: every older entry becomes a miss. 2: unchanged AFS and
    /// CPK entries move by whole 4 KiB blocks (<c>Formats/SharedBlocks</c>).
    /// </summary>
    public const int Version = 2;

    public static ReadOnlySpan<byte> IndexMagic => "AEMCIDX\0"u8;
    public static ReadOnlySpan<byte> PackMagic => "AEMCPACK"u8;
    public const int PackHeaderSize = 16; // magic + u32 version + u32 reserved
}

/// <summary>A blob in a pack file, with the xxHash3 of its bytes.</summary>
internal sealed record CacheExtent(string Pack, long Offset, long Length, string Hash);

/// <summary>A merged archive's bytes: one contiguous extent of independently stored chunks, and its chunk table.</summary>
/// <param name="Length">The archive's size.</param>
/// <param name="Compression">"none" or "lz4".</param>
/// <param name="ChunkSize">Uncompressed bytes per chunk (the last one may be shorter).</param>
/// <param name="Chunks">Where the stored chunks are (offset and total stored length).</param>
/// <param name="Table">The chunk table: per chunk its stored size, codec and hash.</param>
internal sealed record MergedExtent(long Length, string Compression, int ChunkSize, CacheExtent Chunks, CacheExtent Table);

/// <summary>One cached archive: its layout (rebuilt header and segment table) and, when merged, its bytes.</summary>
internal sealed record CacheEntry(string Key, string Route, string Format, long Length, DateTime CreatedUtc, CacheExtent Layout, MergedExtent? Merged = null);

/// <summary>
/// The cache's table of contents: a versioned envelope (magic, version, length) around a JSON list of
/// entries, closed by xxHash3 of the JSON. It is replaced whole and atomically (temp file, fsync, rename).
/// </summary>
internal sealed class CacheIndex
{
    // Source-generated: read at the start of every build and mount, where reflection's first use cost ~60 ms.
    private static JsonTypeInfo<List<CacheEntry>> Json => CacheIndexJson.Default.ListCacheEntry;

    public CacheIndex(IEnumerable<CacheEntry> entries) => Entries = entries.ToList();

    public static CacheIndex Empty => new([]);

    public List<CacheEntry> Entries { get; }

    public CacheEntry? Find(string key) => Entries.FirstOrDefault(e => e.Key == key);

    public byte[] Serialize()
    {
        byte[] payload = JsonSerializer.SerializeToUtf8Bytes(Entries, Json);
        return CacheEnvelope.Seal(CacheFormat.IndexMagic, CacheFormat.Version, payload);
    }

    /// <summary>
    /// The version of an index another ArchiveEmu version wrote (its magic right, its version not this build's), else
    /// null: such an index is no damage, though none of its entries can be used.
    /// </summary>
    public static int? OtherVersion(ReadOnlySpan<byte> bytes) =>
        CacheEnvelope.Open(bytes, CacheFormat.IndexMagic, CacheFormat.Version, out _, out int version) == EnvelopeProblem.OtherVersion ? version : null;

    /// <summary>Parses an index file's bytes; a damaged or foreign file is an <see cref="InvalidDataException"/> saying what is wrong.</summary>
    public static CacheIndex Deserialize(ReadOnlySpan<byte> bytes)
    {
        var problem = CacheEnvelope.Open(bytes, CacheFormat.IndexMagic, CacheFormat.Version, out var sealedPayload, out int version);
        string? why = problem switch
        {
            EnvelopeProblem.NotOne => "not an ArchiveEmu cache index (bad magic or too short)",
            EnvelopeProblem.OtherVersion => $"cache format version {version}, this build reads {CacheFormat.Version}",
            EnvelopeProblem.WrongLength => $"index is truncated or padded ({bytes.Length} bytes for a {BinaryPrimitives.ReadInt64LittleEndian(bytes[16..])}-byte payload)",
            EnvelopeProblem.WrongChecksum => "index checksum mismatch",
            _ => null,
        };
        if (why is not null)
            throw new InvalidDataException(why);
        var payload = bytes[sealedPayload];
        try
        {
            var entries = JsonSerializer.Deserialize(payload, Json) ?? [];
            // Nulls pass the checksum (found by fuzzing: a null entry threw at the first look-up); fields are checked by RespectNullableAnnotations.
            if (entries.Contains(null!))
                throw new InvalidDataException("index lists a null entry");
            return new CacheIndex(entries);
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"index does not parse: {e.Message}");
        }
    }
}

/// <summary>The index's JSON: snake_case names, nulls left out; a null or a missing field where the type allows none is a JsonException (damage; found by afl++).</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.SnakeCaseLower, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    RespectNullableAnnotations = true, RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(List<CacheEntry>))]
internal sealed partial class CacheIndexJson : JsonSerializerContext;
