namespace ArchiveEmu.Core.Routing;

/// <summary>
/// Files of one mod that ArchiveEmu does not apply, and why (docs/DESIGN.md, "What is not applied"): one line per mod and folder.
/// </summary>
/// <param name="Mod">The mod's folder name.</param>
/// <param name="Folder">The folder they are in, relative to the mod's root with '/' ("FEmulator/BF", "bgme", "" for the root).</param>
/// <param name="Files">The files, relative to <paramref name="Folder"/> with '/', in ordinal order.</param>
/// <param name="Reason">Why, in words a player reads.</param>
/// <param name="Quiet">A choice rather than a problem (a language folder of another language): listed, never a warning.</param>
internal sealed record NotApplied(string Mod, string Folder, IReadOnlyList<string> Files, string Reason, bool Quiet = false)
{
    /// <summary>"mod: 3 file(s) in FEmulator/BF/ not applied: reason (a.flow, b.msg, c.flow, …)".</summary>
    public string Line =>
        $"{Mod}: {Files.Count} file(s) in {(Folder.Length == 0 ? "the mod's root" : Folder + "/")} not applied: {Reason} ({FirstFew(Files)})";

    internal static string FirstFew(IReadOnlyList<string> names) => string.Join(", ", names.Take(3)) + (names.Count > 3 ? ", …" : "");
}

/// <summary>
/// How ArchiveEmu read one mod folder: its layout, the layout folders it applied, the language folders it applied and the files it
/// did not apply, with why. <c>build</c>, <c>ls</c>, the mount and <c>doctor</c> all read this one record (<see cref="RoutePlan.ModReports"/>).
/// </summary>
/// <param name="Mod">The mod's folder name.</param>
/// <param name="Root">The mod folder's full path.</param>
/// <param name="Layout"><see cref="MirrorLayout"/> or <see cref="ReloadedLayout"/>.</param>
/// <param name="Applied">The layout folders whose files it applies ("Redirector", "FEmulator/PAK", "P5REssentials/CPK", …), or "mirror".</param>
/// <param name="Languages">The language folders applied ("FEmulator/L10N/fr: 2 file(s)").</param>
/// <param name="NotApplied">Its files not applied, by folder.</param>
internal sealed record ModReport(string Mod, string Root, string Layout, IReadOnlyList<string> Applied, IReadOnlyList<string> Languages,
    IReadOnlyList<NotApplied> NotApplied)
{
    public const string MirrorLayout = "mirror";
    public const string ReloadedLayout = "Reloaded-II";

    /// <summary>Whether nothing of the mod reaches the game: every file it has is not applied (a script-only mod), or it has none.</summary>
    public bool AppliesNothing => Applied.Count == 0;
}
