using ArchiveEmu.Fuzz;

// `ArchiveEmu.Fuzz <target>`: the target under afl-fuzz (SharpFuzz's in-process fork server; input on stdin or in @@).
// `ArchiveEmu.Fuzz seeds <target> <folder>`: writes the target's seeds there. `ArchiveEmu.Fuzz targets`: lists the targets.
// `ArchiveEmu.Fuzz instrument <target>`: the assemblies fuzz.sh instruments for it, one a line.
if (args is ["targets"])
{
    Console.WriteLine(string.Join('\n', FuzzTargets.All));
    return 0;
}
if (args is ["instrument", var instrumentTarget] && FuzzTargets.All.Contains(instrumentTarget))
{
    Console.WriteLine(string.Join('\n', FuzzTargets.Instrumented(instrumentTarget)));
    return 0;
}
string scratch = Directory.CreateTempSubdirectory("archiveemu-fuzz-").FullName;
try
{
    if (args is ["seeds", var seedTarget, var folder] && FuzzTargets.All.Contains(seedTarget))
    {
        Directory.CreateDirectory(folder);
        int n = 0;
        foreach (var (_, bytes) in FuzzTargets.Seeds(seedTarget, scratch))
            File.WriteAllBytes(Path.Combine(folder, $"seed{n++}"), bytes);
        Console.WriteLine($"{n} seeds for {seedTarget} in {folder}");
        return 0;
    }
    if (args is not [var target] || !FuzzTargets.All.Contains(target))
    {
        Console.Error.WriteLine($"usage: ArchiveEmu.Fuzz <target> | seeds <target> <folder> | targets; targets: {string.Join(' ', FuzzTargets.All)}");
        return 2;
    }
    SharpFuzz.Fuzzer.Run(stream =>
    {
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        FuzzTargets.Run(target, copy.ToArray(), scratch);
    });
    return 0;
}
finally
{
    Directory.Delete(scratch, recursive: true);
}
