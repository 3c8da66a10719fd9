using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving.Plans;

/// <summary>
/// Reads a plan <see cref="PlanWriter"/> wrote, checking as it goes that every file the plan reads is still the file it was
/// resolved with (the identity of each original, slice, input and merged-table run, one stat each): a file that moved makes the
/// plan stale (null), and the caller resolves again. A damaged file is an <see cref="InvalidDataException"/>.
/// </summary>
internal sealed class PlanReader
{
    private readonly BinaryReader _r;
    private readonly FileHandlePool? _pool;
    private readonly Dictionary<string, FileIdentity?> _now = new(StringComparer.Ordinal);
    private readonly List<object> _shared = []; // what the writer wrote once and then named by number

    private PlanReader(BinaryReader reader, FileHandlePool? pool) => (_r, _pool) = (reader, pool);

    /// <summary>
    /// The plan in <paramref name="bytes"/> (the payload of its file's envelope: PlanStore opens it), or null when a file it reads has changed since it was resolved. A plan stored
    /// under another key than <paramref name="key"/> is damaged (a file renamed onto this one's name).
    /// </summary>
    public static RoutePlan? Read(ReadOnlyMemory<byte> bytes, string key, FileHandlePool? pool)
    {
        try
        {
            using var stream = new MemoryStream(bytes.ToArray(), writable: false);
            using var reader = new BinaryReader(stream, Encoding.UTF8);
            if (reader.ReadString() is var storedUnder && storedUnder != key)
                throw new InvalidDataException($"it was stored under key {storedUnder}, not {key}");
            var plan = new PlanReader(reader, pool).Plan();
            if (stream.Position != stream.Length)
                throw new InvalidDataException($"{stream.Length - stream.Position} bytes after the plan");
            return plan;
        }
        catch (Stale)
        {
            return null;
        }
        catch (Exception e) when (e is EndOfStreamException or ArgumentException or OverflowException or FormatException)
        {
            throw new InvalidDataException($"route plan does not read back ({e.Message})");
        }
    }

    // A file of the plan is no longer what it was resolved with.
    private sealed class Stale : Exception;

    private RoutePlan Plan()
    {
        string game = _r.ReadString();
        var mods = Strings();
        var archives = List(Route);
        var overrides = List(() => new FileOverride(_r.ReadString(), _r.ReadString(), _r.ReadString()) { Rule = _r.ReadString() });
        var conflicts = List(Conflict);
        var warnings = Strings();
        var reports = List(ModReport);
        return new RoutePlan(game, mods, archives, overrides, conflicts, warnings) { ModReports = reports, FromCache = true };
    }

    private ArchiveRoute Route()
    {
        string relative = _r.ReadString();
        string gamePath = _r.ReadString();
        Check(gamePath, Identity());
        var format = ArchiveFormats.ByName(_r.ReadString()) ?? throw new InvalidDataException("a route of an unknown format");
        var changes = List(Change);
        var conflicts = List(Conflict);
        ArchiveSource? slice = null;
        if (_r.ReadBoolean())
        {
            string path = _r.ReadString();
            long offset = _r.ReadInt64(), length = _r.ReadInt64();
            slice = new ArchiveSource(path, offset, length, Check(path, Identity()));
        }
        var nested = List(() =>
        {
            var entry = Key();
            string origin = _r.ReadString();
            return new NestedRoute(entry, Route(), origin);
        });
        var tables = List(() => Once(Table));
        var follows = _r.ReadBoolean() ? Route() : null;
        return new ArchiveRoute(relative, gamePath, format, new ArchivePatch(changes), conflicts, slice) { Nested = nested, Merges = tables, Follows = follows };
    }

    private EntryChange Change()
    {
        var key = Key();
        string origin = _r.ReadString();
        string? rule = _r.ReadBoolean() ? _r.ReadString() : null;
        EntryInput? input = _r.ReadByte() switch
        {
            PlanFormat.DeleteInput => null,
            PlanFormat.FileInput => FileInput(),
            PlanFormat.BytesInput => EntryInput.FromBytes(_r.ReadBytes(Count())),
            PlanFormat.VirtualInput => Once(VirtualInput),
            var kind => throw new InvalidDataException($"an input of unknown kind {kind}"),
        };
        return new EntryChange(key, input, origin) { Rule = rule };
    }

    private EntryInput FileInput()
    {
        string path = _r.ReadString();
        long offset = _r.ReadInt64(), length = _r.ReadInt64();
        return EntryInput.FromFileSlice(path, offset, length, Check(path, Identity()));
    }

    private EntryInput VirtualInput()
    {
        string name = _r.ReadString();
        long length = _r.ReadInt64();
        int runs = Count();
        var builder = new VirtualFileBuilder(_pool, runs);
        for (int i = 0; i < runs; i++)
        {
            long runLength = _r.ReadInt64();
            switch (_r.ReadByte())
            {
                case PlanFormat.FileRun:
                    string path = _r.ReadString();
                    long offset = _r.ReadInt64();
                    builder.AppendFile(path, offset, runLength, Check(path, Identity()));
                    break;
                case PlanFormat.BytesRun:
                    builder.AppendBytes(_r.ReadBytes(checked((int)runLength)));
                    break;
                case PlanFormat.ZerosRun:
                    builder.AppendZeros(runLength);
                    break;
                default:
                    throw new InvalidDataException("a run of unknown kind");
            }
        }
        return EntryInput.FromVirtualFile(builder.Build(length), name);
    }

    private EntryMergeReport Table()
    {
        string path = _r.ReadString();
        string? original = _r.ReadBoolean() ? _r.ReadString() : null;
        return new EntryMergeReport(path,
            List(() => new MergeContribution(_r.ReadString(), _r.ReadInt32(), _r.ReadInt32())),
            List(() => new MergeConflict(_r.ReadInt32(), _r.ReadInt64(), _r.ReadInt32(), Strings(), _r.ReadString())),
            Strings())
        {
            Original = original,
            Segments = List(() => new MergedSegment(_r.ReadInt32(), _r.ReadInt64(), _r.ReadInt32(), Strings())),
        };
    }

    // An object the writer wrote once: read at its first number, the same object at every later one.
    private T Once<T>(Func<T> read) where T : class
    {
        int number = _r.ReadInt32();
        if (number < _shared.Count)
            return number >= 0 ? _shared[number] as T ?? throw new InvalidDataException($"shared object {number} is not a {typeof(T).Name}")
                : throw new InvalidDataException($"shared object {number}");
        if (number != _shared.Count)
            throw new InvalidDataException($"shared object {number} out of order");
        var item = read();
        _shared.Add(item);
        return item;
    }

    private RouteConflict Conflict()
    {
        string target = _r.ReadString();
        string? entry = _r.ReadBoolean() ? _r.ReadString() : null;
        return new RouteConflict(target, entry, Strings(), _r.ReadString()) { Rules = Strings() };
    }

    private ModReport ModReport() => new(_r.ReadString(), _r.ReadString(), _r.ReadString(), Strings(), Strings(),
        List(() => new NotApplied(_r.ReadString(), _r.ReadString(), Strings(), _r.ReadString(), _r.ReadBoolean())));

    private EntryKey Key()
    {
        int index = _r.ReadInt32();
        return new EntryKey(index, _r.ReadBoolean() ? _r.ReadString() : null);
    }

    private FileIdentity Identity() =>
        new(_r.ReadInt64(), new DateTime(_r.ReadInt64(), DateTimeKind.Utc), new DateTime(_r.ReadInt64(), DateTimeKind.Utc), _r.ReadUInt64());

    // The identity the plan was resolved with, when the file still has it (one stat per file, however often the plan names it).
    private FileIdentity Check(string path, FileIdentity resolved)
    {
        if (!_now.TryGetValue(path, out var now))
        {
            try
            {
                now = FileIdentity.Of(path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                now = null;
            }
            _now[path] = now;
        }
        return now == resolved ? resolved : throw new Stale();
    }

    private int Count()
    {
        int count = _r.ReadInt32();
        // Every item takes at least a byte: a count past what is left is damage, not a list to allocate.
        return count >= 0 && count <= _r.BaseStream.Length - _r.BaseStream.Position ? count : throw new InvalidDataException($"a count of {count}");
    }

    private string[] Strings() => List(_r.ReadString);

    private T[] List<T>(Func<T> read)
    {
        var items = new T[Count()];
        for (int i = 0; i < items.Length; i++)
            items[i] = read();
        return items;
    }
}
