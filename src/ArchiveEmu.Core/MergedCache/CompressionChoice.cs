namespace ArchiveEmu.Core.MergedCache;

/// <summary>How merged bytes are to be stored: decide from measured figures, always LZ4, or always raw (words: Policy/PolicyWords).</summary>
public enum CompressionChoice { Auto, Lz4, None }
