namespace ArchiveEmu.Core.Routing;

/// <summary>The names of the rules that place a mod's files (docs/DESIGN.md, "Reloaded-II and FEF mods"), as reports show them.</summary>
internal static class ModRules
{
    /// <summary>The mod mirrors the game folder.</summary>
    public const string Mirror = "mirror";

    /// <summary>Reloaded-II's file redirector folder, <c>Redirector/</c>, mirrors the game folder.</summary>
    public const string Redirector = "Redirector";

    /// <summary>An input a mod loader added in code (<see cref="CodeInput"/>), above every mod folder.</summary>
    public const string Code = "code";
}
