namespace ArchiveEmu.TestSupport;

/// <summary>Deterministic test bytes.</summary>
public static class TestData
{
    /// <summary><paramref name="length"/> pseudo-random bytes from <paramref name="seed"/>.</summary>
    public static byte[] Random(int seed, int length)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
