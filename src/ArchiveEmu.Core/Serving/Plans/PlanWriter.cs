using System.Text;
using ArchiveEmu.Core.Formats;
using ArchiveEmu.Core.Routing;
using ArchiveEmu.Core.Merges;
using ArchiveEmu.Core.VirtualFiles;

namespace ArchiveEmu.Core.Serving.Plans;

/// <summary>
/// Writes a resolved <see cref="RoutePlan"/> as <see cref="PlanReader"/> reads it back: every route (nested routes, followed
/// routes and merged tables' runs included), override, conflict, warning and mod report. Each file a route reads is written
/// with the identity it had when resolved, so a plan whose files moved since is not used. A plan holding something that has no
/// stable name across processes (an input in memory only this process made, a private decoded file) is not written: the
/// <see cref="NotKept"/> exception says so and the caller keeps nothing.
/// </summary>
internal static class PlanWriter
{
    /// <summary>Thrown for a plan that cannot be kept; the caller resolves again next time.</summary>
    internal sealed class NotKept(string why) : Exception(why);

    public static void Write(RoutePlan plan, string key, Stream stream)
    {
        using var w = new SharingWriter(stream); // the payload: PlanStore seals it in the cache's envelope
        w.Write(key);
        w.Write(plan.GameFolder);
        Strings(w, plan.Mods);
        List(w, plan.Archives, Route);
        List(w, plan.Overrides, (w, o) => { w.Write(o.RelativePath); w.Write(o.SourcePath); w.Write(o.Mod); w.Write(o.Rule); });
        List(w, plan.Conflicts, Conflict);
        Strings(w, plan.Warnings);
        List(w, plan.ModReports, ModReport);
    }

    // Objects one resolve shares between routes, written once and then named by number (a table merged once and bound in every
    // CPK holding it: its report and its merged file), so the plan read back shares them too.
    private sealed class SharingWriter(Stream stream) : BinaryWriter(stream, Encoding.UTF8, leaveOpen: true)
    {
        public Dictionary<object, int> Shared { get; } = new(ReferenceEqualityComparer.Instance);
    }

    /// <summary>Writes <paramref name="item"/> the first time (its number, then <paramref name="write"/>), after that only its number.</summary>
    private static void Once<T>(BinaryWriter w, T item, Action<BinaryWriter, T> write) where T : class
    {
        var shared = ((SharingWriter)w).Shared;
        if (shared.TryGetValue(item, out int known))
        {
            w.Write(known);
            return;
        }
        w.Write(shared[item] = shared.Count);
        write(w, item);
    }

    private static void Route(BinaryWriter w, ArchiveRoute route)
    {
        w.Write(route.RelativePath);
        w.Write(route.GamePath);
        Identity(w, Stable(route.GamePath, FileIdentity.Of(route.GamePath)));
        w.Write(route.Format.Name);
        List(w, route.Patch.Changes, Change);
        List(w, route.Conflicts, Conflict);
        w.Write(route.Slice is not null);
        if (route.Slice is { } slice)
        {
            w.Write(Stable(slice.Path, slice.Path));
            w.Write(slice.Offset);
            w.Write(slice.Length);
            Identity(w, slice.Identity);
        }
        List(w, route.Nested, (w, n) => { Key(w, n.Entry); w.Write(n.Origin); Route(w, n.Route); });
        List(w, route.Merges, (w, t) => Once(w, t, Table));
        w.Write(route.Follows is not null);
        if (route.Follows is { } followed)
            Route(w, followed);
    }

    private static void Change(BinaryWriter w, EntryChange change)
    {
        Key(w, change.Key);
        w.Write(change.Origin);
        w.Write(change.Rule is not null);
        if (change.Rule is { } rule)
            w.Write(rule);
        switch (change.Input)
        {
            case null:
                w.Write(PlanFormat.DeleteInput);
                break;
            case { File: not null } input:
                w.Write(PlanFormat.VirtualInput);
                Once(w, input, (w, input) => { w.Write(input.Name ?? ""); Runs(w, input.File!); });
                break;
            case { Path: { } path } input:
                w.Write(PlanFormat.FileInput);
                w.Write(Stable(path, path));
                w.Write(input.Offset);
                w.Write(input.Length);
                Identity(w, input.Identity ?? throw new NotKept($"{path}: an input without the identity it was resolved with"));
                break;
            case { } input:
                w.Write(PlanFormat.BytesInput);
                w.Write(input.Bytes.Length);
                w.Write(input.Bytes.Span);
                break;
        }
    }

    // A merged table: its runs, each a slice of a file (with the identity it was built with) or bytes in memory.
    private static void Runs(BinaryWriter w, VirtualFile file)
    {
        w.Write(file.Length);
        w.Write(file.Segments.Length);
        foreach (var run in file.Segments)
        {
            w.Write(run.Length);
            switch (run.Source)
            {
                case FileSource source:
                    w.Write(PlanFormat.FileRun);
                    w.Write(Stable(source.Path, source.Path));
                    w.Write(run.SourceOffset);
                    Identity(w, source.Identity);
                    break;
                case MemorySource memory:
                    w.Write(PlanFormat.BytesRun);
                    w.Write(memory.Bytes.Span.Slice(checked((int)run.SourceOffset), checked((int)run.Length)));
                    break;
                case ZeroSource:
                    w.Write(PlanFormat.ZerosRun);
                    break;
                default:
                    throw new NotKept($"a run of {run.Source.Describe()}");
            }
        }
    }

    private static void Table(BinaryWriter w, EntryMergeReport t)
    {
        w.Write(t.Path);
        w.Write(t.Original is not null);
        if (t.Original is { } original)
            w.Write(original);
        List(w, t.Mods, (w, m) => { w.Write(m.Mod); w.Write(m.Fields); w.Write(m.FieldsWon); });
        List(w, t.Conflicts, (w, c) => { w.Write(c.Segment); w.Write(c.Offset); w.Write(c.Width); Strings(w, c.Mods); w.Write(c.Winner); });
        Strings(w, t.NotApplied);
        List(w, t.Segments, (w, s) => { w.Write(s.Index); w.Write(s.Offset); w.Write(s.Length); Strings(w, s.Mods); });
    }

    private static void Conflict(BinaryWriter w, RouteConflict c)
    {
        w.Write(c.Target);
        w.Write(c.Entry is not null);
        if (c.Entry is { } entry)
            w.Write(entry);
        Strings(w, c.Mods);
        w.Write(c.Winner);
        Strings(w, c.Rules);
    }

    private static void ModReport(BinaryWriter w, ModReport m)
    {
        w.Write(m.Mod);
        w.Write(m.Root);
        w.Write(m.Layout);
        Strings(w, m.Applied);
        Strings(w, m.Languages);
        List(w, m.NotApplied, (w, n) => { w.Write(n.Mod); w.Write(n.Folder); Strings(w, n.Files); w.Write(n.Reason); w.Write(n.Quiet); });
    }

    private static void Key(BinaryWriter w, EntryKey key)
    {
        w.Write(key.Index);
        w.Write(key.Name is not null);
        if (key.Name is { } name)
            w.Write(name);
    }

    private static void Identity(BinaryWriter w, FileIdentity identity)
    {
        w.Write(identity.Length);
        w.Write(identity.LastWriteUtc.Ticks);
        w.Write(identity.ChangeUtc.Ticks);
        w.Write(identity.Inode);
    }

    // A private file of this process (a decoded entry with no cache folder to hold it) is named through /proc/self/fd: another
    // process would find another file there, or none.
    // Elsewhere it is a temporary file deleted when this process closes it.
    private static T Stable<T>(string path, T value) =>
        (path.StartsWith("/proc/self/", StringComparison.Ordinal) && !IsGameHandle(path)) || Path.GetFileName(path).StartsWith("archiveemu-decoded-", StringComparison.Ordinal)
            ? throw new NotKept($"{path}: a file private to this process") : value;

    // The game folder reached through a handle (the host mounted in place) is /proc/self/fd/<N>/..., N fixed by the host.
    private static bool IsGameHandle(string path) => path.StartsWith("/proc/self/fd/", StringComparison.Ordinal) && path.IndexOf('/', "/proc/self/fd/".Length) > 0;

    private static void Strings(BinaryWriter w, IReadOnlyList<string> items) => List(w, items, (w, s) => w.Write(s));

    private static void List<T>(BinaryWriter w, IReadOnlyList<T> items, Action<BinaryWriter, T> write)
    {
        w.Write(items.Count);
        foreach (var item in items)
            write(w, item);
    }
}
