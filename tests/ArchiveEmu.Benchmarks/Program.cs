using BenchmarkDotNet.Running;

namespace ArchiveEmu.Benchmarks;

/// <summary>
/// Runs the benchmarks: <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- --filter '*'</c>;
/// <c>-- mount</c> runs the FUSE mount read benchmark instead (see <see cref="Mount.MountReadBenchmark"/>), <c>-- folios</c>
/// the large-folio share of a cold pass (see <see cref="VirtualFiles.LargeFolioShareBenchmark"/>), <c>-- readloop</c> a
/// plain loop of the virtual-file reads for strace and valgrind (see <see cref="VirtualFiles.ReadLoop"/>), <c>-- pairedreads</c>
/// the engine's per-read cost timed in pairs against direct reads (see <see cref="VirtualFiles.PairedReadTiming"/>), <c>-- wrongcase</c> an open
/// by a wrong-case name through the mount with and without <c>--ignore-case</c> (see <see cref="Mount.WrongCaseOpenBenchmark"/>),
/// <c>-- layoutstages FORMAT…</c> where a layout restore's time goes (see <see cref="Formats.LayoutRestoreStages"/>),
/// <c>-- mergedreads</c> where a warm 4 KiB merged read's time goes (see <see cref="MergedCache.MergedPairedReads"/>),
/// <c>-- coldmerged</c> what the merged source's cold bring-in buys (see <see cref="MergedCache.MergedColdBringIn"/>),
/// <c>-- bigmount</c> a 1 GiB emulated archive through the mount per transport (see <see cref="Mount.MountTransportBenchmark"/>;
/// <c>-- bigmount-roundtrip FILE…</c> its request round trip on any mount's files),
/// <c>-- loadtrace</c> a game's loader reading a big emulated CPK cold through the mount (see <see cref="Mount.LoadTraceBenchmark"/>),
/// <c>-- clonecost</c> how much of an emulated archive a copy-on-write clone could share (see <see cref="Mount.CloneCost"/>),
/// <c>-- p5r-scale</c> build and mount times at Persona 5 Royal's scale (see <see cref="Persona.P5rScaleBenchmark"/>);
/// <c>-- metaphor-scale</c> the same at an assumed Metaphor: ReFantazio scale (see <see cref="Metaphor.MetaphorScaleBenchmark"/>).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "mount")
            return Mount.MountReadBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "bigmount-roundtrip")
            return Mount.MountTransportBenchmark.RoundTrip(args[1..]);
        if (args.Length > 0 && args[0] == "bigmount")
            return Mount.MountTransportBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "loadtrace")
            return Mount.LoadTraceBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "clonecost")
            return Mount.CloneCost.Run(args[1..]);
        if (args.Length > 0 && args[0] == "wrongcase")
            return Mount.WrongCaseOpenBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "pairedreads")
            return VirtualFiles.PairedReadTiming.Run(args[1..]);
        if (args.Length > 0 && args[0] == "coldmerged")
            return MergedCache.MergedColdBringIn.Run(args[1..]);
        if (args.Length > 0 && args[0] == "mergedreads")
            return MergedCache.MergedPairedReads.Run(args[1..]);
        if (args.Length > 0 && args[0] == "readloop")
            return VirtualFiles.ReadLoop.Run(args[1..]);
        if (args.Length > 0 && args[0] == "layoutstages")
            return Formats.LayoutRestoreStages.Run(args[1..]);
        if (args.Length > 0 && args[0] == "p5r-scale")
            return Persona.P5rScaleBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "metaphor-scale")
            return Metaphor.MetaphorScaleBenchmark.Run(args[1..]);
        if (args.Length > 0 && args[0] == "folios")
            return VirtualFiles.LargeFolioShareBenchmark.Run(args[1..]);
        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
