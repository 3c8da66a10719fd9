using System.Globalization;
using ArchiveEmu.Core.MergedCache.Folder;

namespace ArchiveEmu.Core.MergedCache.Policy;

/// <summary>The measurements <see cref="CompressionChoice.Auto"/> decides from; tests give fixed ones instead of trusting a noisy disk.</summary>
internal sealed record CodecProbes
{
    public static CodecProbes Default { get; } = new();

    /// <summary>The sequential read speed (MB/s) of the device under a folder, past the page cache; throws an IOException when it cannot tell.</summary>
    public Func<string, double> ReadMbps { get; init; } = DeviceReadProbe.Measure;

    /// <summary>LZ4's decode speed and stored share on texture-like data on this machine.</summary>
    public Func<Lz4Speed> Lz4 { get; init; } = Lz4Speed.OnThisMachine;

    /// <summary>How long a device's measured speed is reused before it is probed again (30 days).</summary>
    public TimeSpan RememberFor { get; init; } = TimeSpan.FromDays(30);
}

/// <summary>The codec newly merged bytes are stored with, and why, in words a user reads.</summary>
internal sealed record CompressionDecision(ChunkCompression Compression, string Reason)
{
    /// <summary>"lz4" or "none", as the cache index and <c>--compress</c> spell it.</summary>
    public string Codec => Compression == ChunkCompression.Lz4 ? "lz4" : "none";

    /// <summary>
    /// Applies <paramref name="choice"/> for merged bytes stored in <paramref name="cacheFolder"/>. Auto stores LZ4 only
    /// where reading fewer bytes saves more than decoding costs (docs/DESIGN.md, "Chunk compression"): with r the share
    /// LZ4 stores, R the device's read speed and D LZ4's decode speed, raw costs 1/R a byte and LZ4 r/R + 1/D (decoding
    /// counted on the reader's thread: decoding ahead on the other core did not pay on a machine whose cores were busy,
    /// see DESIGN), so LZ4 pays iff R &lt; (1 − r)·D. An unmeasured device stores raw. Never throws for the probe.
    /// </summary>
    public static CompressionDecision Make(CompressionChoice choice, string cacheFolder, CodecProbes? probes = null)
    {
        if (choice == CompressionChoice.Lz4)
            return new(ChunkCompression.Lz4, $"lz4: compression {choice.Word()}");
        if (choice == CompressionChoice.None)
            return new(ChunkCompression.None, $"raw: compression {choice.Word()}");
        probes ??= CodecProbes.Default;
        double device;
        try
        {
            device = DeviceSpeeds.ReadMbps(cacheFolder, probes);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            // Raw loses at most the (1 − r) share of read time on a slow device; LZ4 on a fast one measured 0.32–0.42× solid.
            string why = CacheFolderAccess.Problem(e) is { } problem ? $"{cacheFolder} {problem}" : e.Message;
            return new(ChunkCompression.None, $"cache device speed not measured ({why}): raw, the default when unmeasured");
        }
        var lz4 = probes.Lz4();
        bool pays = device < (1 - lz4.Ratio) * lz4.DecodeMbps;
        string figures = string.Create(CultureInfo.InvariantCulture,
            $"cache device reads {device:N0} MB/s, LZ4 decodes {lz4.DecodeMbps:N0} MB/s at {lz4.Ratio * 100:F0}% stored");
        return new(pays ? ChunkCompression.Lz4 : ChunkCompression.None, $"{figures}: {(pays ? "lz4" : "raw")}");
    }
}
