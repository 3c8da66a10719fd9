using System.Globalization;
using System.Text;

namespace ArchiveEmu.Core.Formats.Tar;

/// <summary>pax extended header records: "LEN key=value\n", where LEN counts the whole record.</summary>
internal static class PaxRecords
{
    /// <summary>Parses records; null if malformed.</summary>
    public static List<KeyValuePair<string, string>>? Parse(ReadOnlySpan<byte> data)
    {
        var records = new List<KeyValuePair<string, string>>();
        while (!data.IsEmpty && data[0] != 0)
        {
            int space = data.IndexOf((byte)' ');
            if (space <= 0 || !int.TryParse(data[..space], NumberStyles.None, CultureInfo.InvariantCulture, out int length)
                || length <= space + 1 || length > data.Length || data[length - 1] != '\n')
                return null;
            var record = Encoding.UTF8.GetString(data[(space + 1)..(length - 1)]);
            int eq = record.IndexOf('=');
            if (eq <= 0)
                return null;
            records.Add(new(record[..eq], record[(eq + 1)..]));
            data = data[length..];
        }
        return records;
    }

    public static byte[] Write(IEnumerable<KeyValuePair<string, string>> records)
    {
        var output = new List<byte>();
        foreach (var (key, value) in records)
        {
            int body = Encoding.UTF8.GetByteCount($" {key}={value}\n");
            int length = body + 1;
            while (length.ToString(CultureInfo.InvariantCulture).Length + body != length)
                length++;
            output.AddRange(Encoding.UTF8.GetBytes($"{length} {key}={value}\n"));
        }
        return output.ToArray();
    }
}
