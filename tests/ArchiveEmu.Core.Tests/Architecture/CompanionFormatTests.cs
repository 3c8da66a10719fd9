using ArchiveEmu.Core.Formats;
using ArchiveEmu.TestSupport;

namespace ArchiveEmu.Core.Tests.Architecture;

/// <summary>
/// Issue 30: a format that follows another archive or is recognised by a file beside it keeps those rules in its own
/// folder (<see cref="IFollowingFormat"/>, <see cref="IPairedFormat"/>); the layers above it name none of those formats.
/// </summary>
public sealed class CompanionFormatTests
{
    private static readonly string[] LayersAbove =
    [
        "src/ArchiveEmu.Core/Routing", "src/ArchiveEmu.Core/Serving", "src/ArchiveEmu.Core/Api", "src/ArchiveEmu.Cli", "src/ArchiveEmu.Host",
    ];

    private static IEnumerable<string> CompanionFormatNames() =>
        ArchiveFormats.All.Where(f => f is IFollowingFormat or IPairedFormat).Select(f => f.GetType().Name);

    [Test]
    public void SomeRegisteredFormats_FollowOrPair()
    {
        Assert.That(CompanionFormatNames(), Is.SupersetOf(new[] { "AcbFormat", "ImgV1Format" }));
    }

    [Test]
    public void LayersAboveFormats_NameNoFollowingOrPairedFormat()
    {
        var names = CompanionFormatNames().ToArray();
        var found = new List<string>();
        foreach (var layer in LayersAbove)
        {
            foreach (var file in Directory.EnumerateFiles(Path.Combine(RepositoryFiles.Root, layer), "*.cs", SearchOption.AllDirectories))
            {
                if (file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}") || file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}"))
                    continue;
                string text = File.ReadAllText(file);
                found.AddRange(names.Where(text.Contains).Select(n => $"{Path.GetRelativePath(RepositoryFiles.Root, file)} names {n}"));
            }
        }
        Assert.That(found, Is.Empty);
    }
}
