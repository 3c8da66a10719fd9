using System.Buffers.Binary;

namespace ArchiveEmu.TestSupport;

/// <summary>
/// A V2 PAK's members, cut out by a walk of its records written here from the format facts (docs/FORMATS.md: a count, then
/// per member a 32-byte name, an s32 size and the data), which must cover the file exactly. In memory, so nested PAKs can
/// be walked level by level; <see cref="PakIndependentReader"/> checks a file's structure with Python.
/// </summary>
public static class PakV2Records
{
    public static List<(string Name, byte[] Bytes)> Members(byte[] pak)
    {
        var members = new List<(string, byte[])>();
        int count = BinaryPrimitives.ReadInt32LittleEndian(pak), at = 4;
        for (int i = 0; i < count; i++)
        {
            var name = System.Text.Encoding.ASCII.GetString(pak.AsSpan(at, 32)).TrimEnd('\0');
            int size = BinaryPrimitives.ReadInt32LittleEndian(pak.AsSpan(at + 32));
            members.Add((name, pak.AsSpan(at + 36, size).ToArray()));
            at += 36 + size;
        }
        Assert.That(at, Is.EqualTo(pak.Length), "bytes after the last record");
        return members;
    }
}
