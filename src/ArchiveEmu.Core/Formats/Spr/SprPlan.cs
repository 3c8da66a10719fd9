using System.Buffers.Binary;
using ArchiveEmu.Core.Formats.Spd;

namespace ArchiveEmu.Core.Formats.Spr;

/// <summary>A sprite of the emulated SPR: its record as it will be written, and the change that made it differ from the original (null: unchanged).</summary>
internal sealed record SprPlannedSprite(byte[] Record, EntryChange? Change, bool Added);

/// <summary>
/// Reads a patch by FileEmulationFramework's SPD rules as its SPR builder applies them (docs/DESIGN.md, "FEF's SPD rules"), where
/// IDs are table positions: every TMX file is appended as a new texture (the next index, in name order); <c>spr_&lt;indexes&gt;.tmx</c>
/// points the listed sprites at it, <c>tex_&lt;index&gt;[~&lt;indexes&gt;].tmx</c> every sprite on that texture but the listed ones;
/// <c>spr_&lt;index&gt;.sprt</c> replaces a sprite record, or adds one past the end (the gap, as FEF fills it, with zeroed records).
/// </summary>
internal sealed class SprPlan
{
    private const int TextureIndexAt = 0x14;
    private readonly SprIndex _original;

    public List<EntryChange> NewTextures { get; } = [];
    public List<SprPlannedSprite> Sprites { get; }

    private SprPlan(SprIndex original)
    {
        _original = original;
        Sprites = original.Sprites.Select(s => new SprPlannedSprite(s.Record, null, false)).ToList();
    }

    public static SprPlan Make(SprIndex original, ArchivePatch patch)
    {
        var plan = new SprPlan(original);
        var named = new List<(SpdModName Name, EntryChange Change)>();
        foreach (var change in patch.Changes)
        {
            string key = change.Key.Name ?? change.Key.ToString();
            if (change.IsDelete)
                throw plan.Refuse($"'{key}' (from {change.Origin}): an SPR's textures and sprites cannot be deleted, only replaced or added");
            if (change.Key.IsIndex || SpdModName.Parse(key, ".tmx", ".sprt") is not { } name)
                throw plan.Refuse($"'{key}' (from {change.Origin}) names no SPR texture or sprite; the names are {SpdModName.SprRules}");
            named.Add((name, change));
        }
        foreach (var (name, change) in named.Where(n => n.Name.Kind == SpdModKind.SpriteRecord).OrderBy(n => n.Name.Sprites[0].First))
            plan.SetRecord(name.Sprites[0].First, change);

        var textures = named.Where(n => n.Name.Kind != SpdModKind.SpriteRecord).OrderBy(n => n.Change.Key.Name, StringComparer.OrdinalIgnoreCase).ToList();
        var newIndex = new Dictionary<EntryChange, int>();
        foreach (var (_, change) in textures)
        {
            plan.CheckTmx(change);
            newIndex[change] = original.Textures.Count + plan.NewTextures.Count;
            plan.NewTextures.Add(change);
        }

        var moved = new Dictionary<int, EntryChange>();
        foreach (var (name, change) in textures.Where(t => t.Name.Kind == SpdModKind.TextureForSprites))
        {
            foreach (int index in plan.Listed(name, change))
            {
                if (!moved.TryAdd(index, change))
                    throw plan.Refuse($"sprite {index} is named by both '{moved[index].Key.Name}' ({moved[index].Origin}) and '{change.Key.Name}' ({change.Origin})");
            }
        }
        var byTexture = new Dictionary<int, EntryChange>();
        foreach (var (name, change) in textures.Where(t => t.Name.Kind == SpdModKind.TextureForSpritesOn))
        {
            if (name.TextureId >= original.Textures.Count)
                throw plan.Refuse($"'{change.Key.Name}' (from {change.Origin}): the SPR has no texture {name.TextureId} (it has {original.Textures.Count})");
            if (!byTexture.TryAdd(name.TextureId, change))
                throw plan.Refuse($"texture {name.TextureId} is replaced by both '{byTexture[name.TextureId].Key.Name}' ({byTexture[name.TextureId].Origin}) and '{change.Key.Name}' ({change.Origin})");
            var kept = plan.Listed(name, change).ToHashSet();
            for (int i = 0; i < plan.Sprites.Count; i++)
            {
                if (TextureOf(plan.Sprites[i].Record) == name.TextureId && !kept.Contains(i))
                    moved.TryAdd(i, change); // a sprite an spr_ file names keeps that one
            }
        }

        foreach (var (index, change) in moved)
        {
            var sprite = plan.Sprites[index];
            var record = (byte[])sprite.Record.Clone();
            BinaryPrimitives.WriteInt32LittleEndian(record.AsSpan(TextureIndexAt), newIndex[change]);
            plan.Sprites[index] = sprite with { Record = record, Change = sprite.Change ?? change };
        }
        int textureCount = original.Textures.Count + plan.NewTextures.Count;
        for (int i = 0; i < plan.Sprites.Count; i++)
        {
            if (plan.Sprites[i].Change is { } change && (uint)TextureOf(plan.Sprites[i].Record) >= textureCount)
                throw plan.Refuse($"'{change.Key.Name}' (from {change.Origin}): sprite {i} draws from texture {TextureOf(plan.Sprites[i].Record)}, the SPR will have {textureCount}");
        }
        return plan;
    }

    private static int TextureOf(byte[] record) => BinaryPrimitives.ReadInt32LittleEndian(record.AsSpan(TextureIndexAt));

    private IEnumerable<int> Listed(SpdModName name, EntryChange change)
    {
        foreach (var (first, last) in name.Sprites)
        {
            if (last >= Sprites.Count)
                throw Refuse($"'{change.Key.Name}' (from {change.Origin}) names sprite {last}, and the SPR has {Sprites.Count} (an spr_{last}.sprt file adds it)");
            for (int index = first; index <= last; index++)
                yield return index;
        }
    }

    private void SetRecord(int index, EntryChange change)
    {
        var input = change.Input!;
        if (input.Length != SprFormat.SpriteRecordSize)
            throw Refuse($"'{change.Key.Name}': {input} is {input.Length} bytes; a sprite record is {SprFormat.SpriteRecordSize}");
        if (index >= ushort.MaxValue)
            throw Refuse($"'{change.Key.Name}': sprite {index} is past the {ushort.MaxValue} an SPR can count");
        var record = new byte[SprFormat.SpriteRecordSize];
        if (input.Read(0, record) != record.Length)
            throw Refuse($"'{change.Key.Name}': {input} ended early");
        while (Sprites.Count < index)
            Sprites.Add(new SprPlannedSprite(new byte[SprFormat.SpriteRecordSize], change, true)); // FEF's filler up to the new index
        if (index == Sprites.Count)
            Sprites.Add(new SprPlannedSprite(record, change, true));
        else
            Sprites[index] = Sprites[index] with { Record = record, Change = change };
    }

    private void CheckTmx(EntryChange change)
    {
        var input = change.Input!;
        Span<byte> head = stackalloc byte[SprFormat.TmxMinimum];
        if (input.Length < SprFormat.TmxMinimum || input.Read(0, head) != head.Length || !head[8..].StartsWith("TMX0"u8))
            throw Refuse($"'{change.Key.Name}' (from {change.Origin}): {input} is not a TMX file (no TMX0 magic at 8)");
        if (input.Length > int.MaxValue)
            throw Refuse($"'{change.Key.Name}': {input} is {input.Length} bytes; SPR sizes stop at 2 GiB");
    }

    private ArchiveFormatException Refuse(string problem) => new(_original.Source.Name, 0, problem);
}
