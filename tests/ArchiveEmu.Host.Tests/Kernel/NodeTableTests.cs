using ArchiveEmu.Host.Fuse.Kernel;

namespace ArchiveEmu.Host.Tests.Kernel;

public sealed class NodeTableTests
{
    [Test]
    public void LookedUp_SamePathTwice_IsOneNodeWithTwoLookups_AndForgetRemovesItOnlyAtZero()
    {
        var nodes = new NodeTable();
        var root = nodes.Get(FuseWire.RootNode)!;
        var first = nodes.LookedUp(root, "data", "data");
        var again = nodes.LookedUp(root, "data", "data");
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
        var old = nodes.LookedUp(root, "a.afs", "a.afs");
        old.OpenFiles = 1;
        nodes.Detach(old);

        var next = nodes.LookedUp(root, "a.afs", "a.afs");
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
    public void TheRoot_IsNeverForgotten()
    {
        var nodes = new NodeTable();
        nodes.Forget(FuseWire.RootNode, 100);
        Assert.That(nodes.Get(FuseWire.RootNode)?.Path, Is.EqualTo(""));
    }
}
