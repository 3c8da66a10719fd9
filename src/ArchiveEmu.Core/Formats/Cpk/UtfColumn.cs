namespace ArchiveEmu.Core.Formats.Cpk;

/// <summary>The value type of an @UTF column: the low nibble of its flag byte (vgmstream cri_utf.c, CriFsV2Lib CriColumnFlags).</summary>
internal enum UtfType : byte
{
    U8 = 0x0, S8 = 0x1, U16 = 0x2, S16 = 0x3, U32 = 0x4, S32 = 0x5, U64 = 0x6, S64 = 0x7,
    Float = 0x8, Double = 0x9,
    /// <summary>A u32 offset into the string pool (NUL-terminated).</summary>
    String = 0xA,
    /// <summary>A u32 offset and a u32 size into the data pool.</summary>
    Data = 0xB,
    /// <summary>16 raw bytes (CriFsV2Lib calls it Guid).</summary>
    Guid = 0xC,
}

/// <summary>Where an @UTF column's value is: the high nibble of its flag byte (0x10 name, 0x20 default value, 0x40 per row).</summary>
internal enum UtfStorage : byte
{
    /// <summary>Named, no value stored: every row reads the type's zero (null for strings and data).</summary>
    Zero = 0x10,
    /// <summary>One value stored with the column, shared by every row.</summary>
    Constant = 0x30,
    /// <summary>A value in every row.</summary>
    PerRow = 0x50,
}

/// <summary>
/// One column of an @UTF table. Values are byte/sbyte/ushort/short/uint/int/ulong/long, float, double, string, or
/// byte[] (data and Guid); null for a string or data column stored as <see cref="UtfStorage.Zero"/>.
/// </summary>
/// <param name="Name">The column name (from the string pool).</param>
/// <param name="Type">The value type.</param>
/// <param name="Storage">Zero, constant or per row, as found (the writer keeps it where the values allow).</param>
/// <param name="Constant">The stored value of a constant column, else null.</param>
internal sealed record UtfColumn(string Name, UtfType Type, UtfStorage Storage, object? Constant = null)
{
    /// <summary>Bytes a value of <paramref name="type"/> takes in a row or a constant.</summary>
    public static int WidthOf(UtfType type) => type switch
    {
        UtfType.U8 or UtfType.S8 => 1,
        UtfType.U16 or UtfType.S16 => 2,
        UtfType.U32 or UtfType.S32 or UtfType.Float or UtfType.String => 4,
        UtfType.U64 or UtfType.S64 or UtfType.Double or UtfType.Data => 8,
        UtfType.Guid => 16,
        _ => throw new ArgumentOutOfRangeException(nameof(type), type, "not an @UTF value type"),
    };

    /// <summary>True for the integer types.</summary>
    public bool IsInteger => Type <= UtfType.S64;

    /// <summary>The value every row of a zero-stored column reads.</summary>
    public object? ZeroValue => ZeroOf(Type);

    /// <summary>The zero of <paramref name="type"/>: 0 as that CLR type, or null for strings, data and Guid.</summary>
    public static object? ZeroOf(UtfType type) => type switch
    {
        UtfType.U8 => (byte)0, UtfType.S8 => (sbyte)0, UtfType.U16 => (ushort)0, UtfType.S16 => (short)0,
        UtfType.U32 => 0u, UtfType.S32 => 0, UtfType.U64 => 0ul, UtfType.S64 => 0L,
        UtfType.Float => 0f, UtfType.Double => 0d,
        _ => null,
    };

    /// <summary><paramref name="value"/> (any integer) as this integer column's CLR type; out of range is an OverflowException.</summary>
    public object ToIntegerValue(long value) => Type switch
    {
        UtfType.U8 => checked((byte)value), UtfType.S8 => checked((sbyte)value),
        UtfType.U16 => checked((ushort)value), UtfType.S16 => checked((short)value),
        UtfType.U32 => checked((uint)value), UtfType.S32 => checked((int)value),
        UtfType.U64 => checked((ulong)value), UtfType.S64 => value,
        _ => throw new UtfColumnTypeException($"@UTF column '{Name}' is {Type}, not an integer"),
    };
}

/// <summary>A value of one type asked of a column of another: an original whose table has a column of an unexpected type.</summary>
internal sealed class UtfColumnTypeException(string message) : Exception(message);
