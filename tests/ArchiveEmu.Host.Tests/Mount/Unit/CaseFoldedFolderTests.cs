using ArchiveEmu.Host.Mount;

namespace ArchiveEmu.Host.Tests.Mount.Unit;

/// <summary>Issue 19: one folder's names found whatever the case asked (Windows' rule), exact name first.</summary>
public sealed class CaseFoldedFolderTests
{
    [Test]
    public void Find_AnyCase_GivesTheFoldersSpelling()
    {
        var folder = CaseFoldedFolder.Of(["textures.afs", "readme.txt"]);
        Assert.That(folder.Find("TEXTURES.AFS"), Is.EqualTo("textures.afs"));
        Assert.That(folder.Find("Textures.Afs"), Is.EqualTo("textures.afs"));
        Assert.That(folder.Find("textures.afs"), Is.EqualTo("textures.afs"));
    }

    [Test]
    public void Find_NonAsciiLetters_FoldAsOnWindows()
    {
        var folder = CaseFoldedFolder.Of(["données", "é.txt", "straße"]);
        Assert.That(folder.Find("DONNÉES"), Is.EqualTo("données"));
        Assert.That(folder.Find("É.TXT"), Is.EqualTo("é.txt"));
        Assert.That(folder.Find("STRASSE"), Is.Null, "ordinal case folding maps letter to letter, never ß to SS");
    }

    [Test]
    public void Find_AnExactName_IsItself_EvenWhenAnotherDiffersOnlyInCase()
    {
        var folder = CaseFoldedFolder.Of(["Dup.txt", "dup.txt", "DUP.txt"]);
        Assert.That(folder.Find("dup.txt"), Is.EqualTo("dup.txt"));
        Assert.That(folder.Find("Dup.txt"), Is.EqualTo("Dup.txt"));
        Assert.That(folder.Find("DUP.txt"), Is.EqualTo("DUP.txt"));
    }

    [Test]
    public void Find_AmbiguousWithoutAnExactName_IsTheFirstInOrdinalOrder_WhateverTheListingOrder()
    {
        var folder = CaseFoldedFolder.Of(["dup.txt", "Dup.txt", "DUP.txt"]);
        Assert.That(folder.Find("dUP.TXT"), Is.EqualTo("DUP.txt"), "'DUP.txt' < 'Dup.txt' < 'dup.txt' in ordinal order");
    }

    [Test]
    public void Find_ANameNotThere_IsNull()
    {
        Assert.That(CaseFoldedFolder.Of(["a.txt"]).Find("b.txt"), Is.Null);
        Assert.That(CaseFoldedFolder.Of([]).Find("a.txt"), Is.Null);
    }
}
