namespace ArchiveEmu.Core.Formats.Pak;

/// <summary>
/// Tells which PAK variant a file is from its head alone (PAK has no magic), never throwing: every
/// record whose header lies in the head must have a well-formed name and a size that fits the file.
/// </summary>
internal static class PakProbe
{
    /// <summary>The most entries a V2/V3 count may claim for the file to be taken as PAK.</summary>
    public const int MaxDetectedCount = 1 << 17;

    /// <summary>
    /// How a variant's reading of the head went: Valid when nothing contradicted it; Score counts the header
    /// bytes that made sense (a well-formed name, a size that fits), halved when a V2/V3 count does not fit.
    /// </summary>
    internal readonly record struct Probe(bool Valid, int Score);

    /// <summary>The first variant, in <see cref="PakVariant.All"/> order, that reads the head without a problem; null if none.</summary>
    public static PakVariant? Detect(ReadOnlySpan<byte> head, long length)
    {
        foreach (var variant in PakVariant.All)
        {
            if (Read(head, length, variant).Valid)
                return variant;
        }
        return null;
    }

    /// <summary>
    /// For a file no variant reads cleanly: the variant that read the most records before a problem,
    /// so the reader can report that problem; null if no variant sees even one well-formed name.
    /// </summary>
    public static PakVariant? BestGuess(ReadOnlySpan<byte> head, long length)
    {
        PakVariant? best = null;
        int bestScore = 0;
        foreach (var variant in PakVariant.All)
        {
            int score = Read(head, length, variant).Score;
            if (score > bestScore)
                (best, bestScore) = (variant, score);
        }
        return best;
    }

    /// <summary>Walks the records in the head as <paramref name="variant"/> lays them out.</summary>
    internal static Probe Read(ReadOnlySpan<byte> head, long length, PakVariant variant)
    {
        long count = long.MaxValue; // V1: until EOF or a terminator
        bool countFits = true;
        if (variant.HasCount)
        {
            if (head.Length < 4)
                return new Probe(false, 0);
            count = variant.ReadInt32(head);
            countFits = count is >= 1 and <= MaxDetectedCount && variant.FirstRecordOffset + count * variant.HeaderLength <= length;
            if (!countFits)
                count = long.MaxValue; // still walk the records: their score says whether only the count is wrong
        }
        else if (head.IsEmpty || head[0] == 0)
            return new Probe(false, 0);

        int records = 0, score = 0;
        Probe Result(bool valid) => new(valid && countFits && records > 0, countFits ? score : score / 2);
        long at = variant.FirstRecordOffset;
        while (records < count)
        {
            if (!variant.HasCount && at >= length)
                break; // V1 ends at EOF
            if (at + variant.HeaderLength > length)
            {
                // V1 may end with fewer than 256 zero bytes; anything else is a header cut short.
                bool zeroTail = !variant.HasCount && at < head.Length && head[(int)at..].IndexOfAnyExcept((byte)0) < 0;
                if (!zeroTail)
                    return Result(false);
                break;
            }
            if (at + variant.HeaderLength > head.Length)
                break; // the rest lies beyond the head: what was seen is consistent

            var header = head.Slice((int)at, variant.HeaderLength);
            if (!variant.HasCount && header.IndexOfAnyExcept((byte)0) < 0)
                break; // V1 terminator
            if (!PakHeader.IsWellFormedName(header[..variant.NameLength]))
                return Result(false);
            score += variant.NameLength;
            long size = variant.ReadInt32(header[variant.NameLength..]);
            long dataEnd = at + variant.HeaderLength + size;
            if (size < 0 || dataEnd > length)
                return Result(false);
            score += 4;
            records++;
            at = variant.NextRecordOffset(dataEnd);
        }
        return Result(true);
    }
}
