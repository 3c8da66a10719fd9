using ArchiveEmu.Host.Tests.Mount.Support;

namespace ArchiveEmu.Host.Tests.Mount.EndToEnd;

/// <summary>Issue 19: without <c>mount --ignore-case</c> a wrong-case path is "No such file", and exact names are served as before.</summary>
[TestFixture("kernel")]
[TestFixture("libfuse")]
[NonParallelizable]
public sealed class CaseSensitiveMountTests(string fuse) : CaseMountFixture(fuse, ignoreCase: false)
{
    [Test]
    public void WrongCasePaths_AreNoSuchFile() => WrongCasePaths();

    [Test]
    public void ListingAFolderByWrongCase_IsNoSuchFolder_TheRealSpellingLists() => Listing();

    [Test]
    public void TwoNamesThatDifferOnlyInCase_EachExactNameIsItself_AnotherSpellingIsNoSuchFile() => TwoNamesThatDifferOnlyInCase();
}
