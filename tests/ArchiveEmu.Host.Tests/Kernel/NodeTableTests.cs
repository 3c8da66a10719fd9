using ArchiveEmu.Host.Fuse.Kernel;
using ArchiveEmu.Host.Tests.Fuse;

namespace ArchiveEmu.Host.Tests.Kernel;

public sealed class NodeTableTests
{
    [Test]
    public void LookedUp_SamePathTwice_IsOneNodeWithTwoLookups_AndForgetRemovesItOnlyAtZero()
    {
        var nodes = new NodeTable();
        var root = nodes.Get(FuseWire.RootNode)!;
        var first = nodes.LookedUp(root, "data", "data", null);
        var again = nodes.LookedUp(root, "data", "data", null);
        Assert.That(again, Is.SameAs(first));
        Assert.That(first.Id, Is.Not.EqualTo(FuseWire.RootNode));

        nodes.Forget(first.Id, 1);
        Assert.That(nodes.Get(first.Id), Is.SameAs(first));
        nodes.Forget(first.Id, 1);
        Assert.That(nodes.Get(first.Id), Is.Null);
        Assert.That(nodes.AtPath("data"), Is.Null);
    }

    [Test]
    public void Detach_WithAnOpenFile_KeepsTheNodeForIt_ButTheNextLookupGetsANewNode()
    {
        var nodes = new NodeTable();
        var root = nodes.Get(FuseWire.RootNode)!;
        var old = nodes.LookedUp(root, "a.afs", "a.afs", new TestVersion("v1"));
        old.OpenFiles = 1;
        nodes.Detach(old);

        var next = nodes.LookedUp(root, "a.afs", "a.afs", new TestVersion("v1"));
        Assert.That(next.Id, Is.Not.EqualTo(old.Id));
        Assert.That(nodes.AtPath("a.afs"), Is.SameAs(next));
        Assert.That(nodes.Get(old.Id), Is.SameAs(old), "the kernel still holds the old node");

        nodes.Forget(old.Id, 1);
        Assert.That(nodes.Get(old.Id), Is.SameAs(old), "an open file keeps it");
        lock (nodes.Lock)
        {
            old.OpenFiles = 0;
            nodes.RemoveIfUnused(old);
        }
        Assert.That(nodes.Get(old.Id), Is.Null);
        Assert.That(nodes.AtPath("a.afs"), Is.SameAs(next), "removing the old node leaves the path's new one");
    }

    [Test]
    public void LookedUp_AnotherVersionWhileFilesAreOpen_IsANewNode_TheSameVersionIsTheSameNode()
    {
        var nodes = new NodeTable();
        var root = nodes.Get(FuseWire.RootNode)!;
        var old = nodes.LookedUp(root, "a.afs", "a.afs", new TestVersion("v1"));
        old.OpenFiles = 1;
        Assert.That(nodes.LookedUp(root, "a.afs", "a.afs", new TestVersion("v1")), Is.SameAs(old));

        var next = nodes.LookedUp(root, "a.afs", "a.afs", new TestVersion("v2"));
        Assert.That(next, Is.Not.SameAs(old));
        Assert.That(old.Detached, Is.True);
        Assert.That(next.Version, Is.EqualTo(new TestVersion("v2")));

        var unused = nodes.LookedUp(root, "b.afs", "b.afs", new TestVersion("v1"));
        Assert.That(nodes.LookedUp(root, "b.afs", "b.afs", new TestVersion("v2")), Is.SameAs(unused), "no open file: the node moves to the new version");
        Assert.That(unused.Version, Is.EqualTo(new TestVersion("v2")));
    }

    [Test]
    public void LookedUp_ByAnotherSpelling_IsTheSameNode_CountsEachLookup_AndKeepsTheSpellingForInvalidation()
    {
        var nodes = new NodeTable();
        var root = nodes.Get(FuseWire.RootNode)!;
        var real = nodes.LookedUp(root, "data", "data", null);
        var other = nodes.LookedUp(root, "data", "data", null, asked: "DATA");
        Assert.That(other, Is.SameAs(real), "one inode for both dentries the kernel caches");
        Assert.That(real.Lookups, Is.EqualTo(2));
        Assert.That(real.Spellings, Is.EqualTo(new[] { "data", "DATA" }));
        Assert.That(nodes.LookedUp(root, "data", "data", null, asked: "data").Spellings, Is.EqualTo(new[] { "data", "DATA" }), "the real name is not repeated");

        nodes.Forget(real.Id, 2);
        Assert.That(nodes.Get(real.Id), Is.SameAs(real), "three lookups, two forgotten");
        nodes.Forget(real.Id, 1);
        Assert.That(nodes.Get(real.Id), Is.Null);
        Assert.That(nodes.AtPath("data"), Is.Null);
    }

    [Test]
    public void TheRoot_IsNeverForgotten()
    {
        var nodes = new NodeTable();
        nodes.Forget(FuseWire.RootNode, 100);
        Assert.That(nodes.Get(FuseWire.RootNode)?.Path, Is.EqualTo(""));
    }
}
