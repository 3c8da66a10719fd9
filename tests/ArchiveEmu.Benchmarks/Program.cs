using BenchmarkDotNet.Running;

namespace ArchiveEmu.Benchmarks;

/// <summary>Runs the benchmarks: <c>dotnet run -c Release --project tests/ArchiveEmu.Benchmarks -- --filter '*'</c>.</summary>
public static class Program
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
