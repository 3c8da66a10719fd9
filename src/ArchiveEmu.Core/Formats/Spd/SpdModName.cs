using System.Globalization;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>What a mod file in an SPD's (or SPR's, with .tmx and .sprt) folder does, by FileEmulationFramework's SPD naming (docs/DESIGN.md, "FEF's SPD rules").</summary>
internal enum SpdModKind
{
    /// <summary><c>tex_&lt;id&gt;.dds</c>, <c>tex_&lt;id&gt;~&lt;ids&gt;.dds</c>: a new texture for every sprite on texture id but the listed ones.</summary>
    TextureForSpritesOn,

    /// <summary><c>spr_&lt;ids&gt;.dds</c>: a new texture for the listed sprites.</summary>
    TextureForSprites,

    /// <summary><c>spr_&lt;id&gt;.spdspr</c>: a sprite record replacing or adding sprite id.</summary>
    SpriteRecord,
}

/// <summary>A parsed mod file name: its kind, the texture it targets (tex_), and the sprite ID ranges it lists.</summary>
internal sealed record SpdModName(SpdModKind Kind, int TextureId, IReadOnlyList<(int First, int Last)> Sprites)
{
    /// <summary>
    /// Parses <paramref name="name"/>, or null when it follows none of the rules. Sprite lists are IDs and ranges joined by
    /// '_' (<c>15_20_25-30</c>); prefixes and extensions ignore case, as FEF's do.
    /// </summary>
    public static SpdModName? Parse(string name, string textureExtension = ".dds", string spriteExtension = ".spdspr")
    {
        if (name.Contains('/') || name.Contains('\\'))
            return null;
        if (name.EndsWith(spriteExtension, StringComparison.OrdinalIgnoreCase))
        {
            string id = name[..^spriteExtension.Length];
            return StartsWith(id, "spr_") && ParseId(id[4..]) is { } sprite ? new SpdModName(SpdModKind.SpriteRecord, -1, [(sprite, sprite)]) : null;
        }
        if (!name.EndsWith(textureExtension, StringComparison.OrdinalIgnoreCase))
            return null;
        string stem = name[..^textureExtension.Length];
        if (StartsWith(stem, "spr_"))
            return ParseList(stem[4..]) is { } listed ? new SpdModName(SpdModKind.TextureForSprites, -1, listed) : null;
        if (!StartsWith(stem, "tex_"))
            return null;
        int tilde = stem.IndexOf('~');
        string texture = tilde < 0 ? stem[4..] : stem[4..tilde];
        if (ParseId(texture) is not { } textureId)
            return null;
        if (tilde < 0)
            return new SpdModName(SpdModKind.TextureForSpritesOn, textureId, []);
        return ParseList(stem[(tilde + 1)..]) is { } excluded ? new SpdModName(SpdModKind.TextureForSpritesOn, textureId, excluded) : null;
    }

    private static bool StartsWith(string text, string prefix) => text.StartsWith(prefix, StringComparison.OrdinalIgnoreCase);

    private static List<(int, int)>? ParseList(string text)
    {
        var ranges = new List<(int, int)>();
        foreach (var part in text.Split('_'))
        {
            int dash = part.IndexOf('-');
            if (dash < 0 && ParseId(part) is { } single)
                ranges.Add((single, single));
            else if (dash > 0 && ParseId(part[..dash]) is { } first && ParseId(part[(dash + 1)..]) is { } last && first <= last)
                ranges.Add((first, last));
            else
                return null;
        }
        return ranges;
    }

    /// <summary>A non-negative decimal ID of at most 9 digits (no sign, no spaces), or null.</summary>
    private static int? ParseId(string text) =>
        text.Length is > 0 and <= 9 && text.All(char.IsAsciiDigit) ? int.Parse(text, CultureInfo.InvariantCulture) : null;

    /// <summary>The rules in words, for the error a bad name gets.</summary>
    public const string Rules = "tex_<id>.dds, tex_<id>~<ids>.dds, spr_<ids>.dds (ids like 15_20_25-30) or spr_<id>.spdspr";

    /// <summary>The SPR rules in words: TMX textures, <c>.sprt</c> sprite records, IDs that are table positions.</summary>
    public const string SprRules = "tex_<index>.tmx, tex_<index>~<indexes>.tmx, spr_<indexes>.tmx (like 15_20_25-30) or spr_<index>.sprt";
}
