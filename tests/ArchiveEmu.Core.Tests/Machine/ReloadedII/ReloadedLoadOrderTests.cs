using ArchiveEmu.Core.Machine.ReloadedII;

namespace ArchiveEmu.Core.Tests.Machine.ReloadedII;

/// <summary>
/// Issue 48: the load order is found without recursion (a 100,000-long ModDependencies chain overflowed the stack) and without
/// quadratic lookups, and stays Reloaded-II's: equal to the recursive depth-first order on random dependency graphs.
/// </summary>
public sealed class ReloadedLoadOrderTests
{
    private static ReloadedMod Mod(string id, params string[] dependencies) =>
        new(id, $"name of {id}", "1.0.0", $"/mods/{id}", dependencies, ["p5r.exe"], false, null);

    [Test]
    public void AChainOf100000Dependencies_LoadsDeepestFirst()
    {
        const int n = 100_000;
        var mods = Enumerable.Range(0, n).Select(i => Mod($"m{i}", i + 1 < n ? [$"m{i + 1}"] : [])).ToArray();

        var order = ReloadedLoadOrder.Of(["m0"], mods);

        Assert.That(order.Mods.Select(m => m.Mod.Id), Is.EqualTo(Enumerable.Range(0, n).Reverse().Select(i => $"m{i}")));
        Assert.That(order.Mods[0].NeededBy, Is.EqualTo($"name of m{n - 2}"));
        Assert.That(order.Mods[^1].Enabled, Is.True);
    }

    [Test]
    public void RandomDependencyGraphs_GiveTheRecursiveDepthFirstOrder()
    {
        var random = new Random(48);
        for (int round = 0; round < 2000; round++)
        {
            int count = random.Next(1, 25);
            string Id(int i) => $"mod.{i}";
            string Spelled(string id) => random.Next(4) == 0 ? id.ToUpperInvariant() : id; // dependencies match in any letter case
            var mods = Enumerable.Range(0, count).Select(i => Mod(Id(i), Enumerable.Range(0, random.Next(0, 4))
                .Select(_ => random.Next(8) == 0 ? $"missing.{random.Next(3)}" : Spelled(Id(random.Next(count)))).ToArray())).ToArray();
            var enabled = Enumerable.Range(0, random.Next(0, count + 3))
                .Select(_ => random.Next(10) == 0 ? $"not.installed.{random.Next(2)}" : Id(random.Next(count))).ToArray();

            var order = ReloadedLoadOrder.Of(enabled, mods);
            var (expected, notInstalled, missing) = Recursive(enabled, mods);

            Assert.That(order.Mods.Select(m => (m.Mod.Id, m.Enabled, m.NeededBy)), Is.EqualTo(expected), $"round {round}");
            Assert.That(order.EnabledNotInstalled, Is.EqualTo(notInstalled), $"round {round}");
            Assert.That(order.MissingDependencies, Is.EqualTo(missing), $"round {round}");
        }
    }

    // The order as Reloaded-II's recursive sort gives it (Reloaded.Mod.Loader.IO ModConfig.SortMods over the enabled mods, each
    // dependency visited before its mod in the listed order, a mod met again passed over): the reference the loop must equal.
    private static (List<(string, bool, string?)>, List<string>, List<(string, string)>) Recursive(string[] enabledIds, ReloadedMod[] installed)
    {
        var anyCase = new Dictionary<string, ReloadedMod>(StringComparer.OrdinalIgnoreCase);
        foreach (var mod in installed)
            anyCase[mod.Id] = mod;
        var enabled = new List<ReloadedMod>();
        var notInstalled = new List<string>();
        foreach (var id in enabledIds)
        {
            var mod = installed.FirstOrDefault(m => m.Id == id);
            if (mod is null)
                notInstalled.Add(id);
            else if (!enabled.Contains(mod))
                enabled.Add(mod);
        }
        var sorted = new List<(string, bool, string?)>();
        var seen = new HashSet<ReloadedMod>();
        var missing = new List<(string, string)>();
        void Visit(ReloadedMod mod, string? neededBy)
        {
            if (!seen.Add(mod))
                return;
            foreach (var id in mod.Dependencies)
            {
                if (anyCase.TryGetValue(id, out var dependency))
                    Visit(dependency, mod.Name);
                else if (!missing.Contains((id, mod.Name)))
                    missing.Add((id, mod.Name));
            }
            bool isEnabled = enabled.Contains(mod);
            sorted.Add((mod.Id, isEnabled, isEnabled ? null : neededBy));
        }
        foreach (var mod in enabled)
            Visit(mod, null);
        return (sorted, notInstalled, missing);
    }
}
