namespace ArchiveEmu.TestSupport.Cri;

/// <summary>
/// The independent script's CRILAYLA decoder on its own: decodes a whole stream (header, bits, 0x100-byte prefix),
/// rejecting one whose sizes disagree, that runs out of bits or whose back-references reach outside the output.
/// </summary>
public static class CrilaylaIndependentDecoder
{
    /// <summary>The decoded content, or the decoder's one-line reason for rejecting the stream.</summary>
    public sealed record Result(byte[]? Content, string? Rejection);

    /// <summary>Decodes <paramref name="stream"/>; a rejection fails the test with the decoder's message.</summary>
    public static byte[] Decode(byte[] stream)
    {
        var result = TryDecode(stream);
        Assert.That(result.Rejection, Is.Null, "independent CRILAYLA decoder rejected the stream");
        return result.Content!;
    }

    /// <summary>Decodes <paramref name="stream"/>, returning the rejection instead of failing.</summary>
    public static Result TryDecode(byte[] stream)
    {
        using var dir = new TempDirectory("crilayla");
        var input = dir.Write("in.bin", stream);
        var output = dir["out.bin"];
        var result = ExternalTool.Python(CriIndependentScript.Source, "crilayla", input, output);
        return result.ExitCode == 0 ? new Result(File.ReadAllBytes(output), null) : new Result(null, CriJson.Rejection(result));
    }
}
