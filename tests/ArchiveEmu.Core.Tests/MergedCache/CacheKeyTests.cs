using System.IO.Hashing;
using System.Text;
using ArchiveEmu.Core.MergedCache.Index;

namespace ArchiveEmu.Core.Tests.MergedCache;

public sealed class CacheKeyTests
{
    [Test]
    public void TheHash_IsXxHash128OfTheUtf8Text_WhateverChunksTheBuilderHoldsItIn()
    {
        // Appended in small pieces, the builder keeps several chunks; non-ASCII names and a surrogate pair (an emoji) land
        // on chunk boundaries somewhere among them. Encoded piece by piece, the hash must be the one of the whole string:
        // that is what keys written before stayed under (an entry of an older version is found, not stored again).
        var text = new StringBuilder(16).Append('x', 15).Append("\U0001F3AE"); // the pair split: one half in each chunk
        Assert.That(char.IsHighSurrogate(Chunks(text)[0][^1]), Is.True);
        for (int i = 0; i < 3000; i++)
            text.Append("file /mods/Überpack/テクスチャ/").Append(i).Append(i % 7 == 0 ? "\U0001F3AE" : "é").Append(" [0+4096]\n");
        Assert.That(Chunks(text), Has.Count.GreaterThan(2));

        string expected = Convert.ToHexStringLower(XxHash128.Hash(Encoding.UTF8.GetBytes(text.ToString())));

        Assert.That(CacheKey.HashOf(text), Is.EqualTo(expected));
        Assert.That(new CacheKey("/game/data/a.afs", text).Hash, Is.EqualTo(expected));
    }

    [Test]
    public void OneCharacterMore_IsAnotherHash()
    {
        var text = new StringBuilder("archiveemu-cache 4\nformat afs\n");
        string before = CacheKey.HashOf(text);
        text.Append(' ');
        Assert.That(CacheKey.HashOf(text), Is.Not.EqualTo(before));
    }

    private static List<string> Chunks(StringBuilder text)
    {
        var chunks = new List<string>();
        foreach (var chunk in text.GetChunks())
            chunks.Add(chunk.ToString());
        return chunks;
    }
}
