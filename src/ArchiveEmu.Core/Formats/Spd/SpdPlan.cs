using System.Buffers.Binary;
using System.Text;

namespace ArchiveEmu.Core.Formats.Spd;

/// <summary>A texture the emulated SPD appends: its new ID, its 0x30 record (offset filled in at layout), and the mod file that holds its DDS bytes.</summary>
internal sealed record SpdNewTexture(int Id, byte[] Record, EntryChange Change);

/// <summary>A sprite of the emulated SPD: its record as it will be written, and the change that made it differ from the original (null: unchanged).</summary>
internal sealed record SpdPlannedSprite(int Id, byte[] Record, EntryChange? Change, bool Added);

/// <summary>
/// Reads a patch by FileEmulationFramework's SPD rules (docs/DESIGN.md, "FEF's SPD rules"): every DDS file becomes a new texture
/// with the next free ID; <c>spr_&lt;ids&gt;.dds</c> points the listed sprites at it, <c>tex_&lt;id&gt;[~&lt;ids&gt;].dds</c> every
/// sprite on texture id but the listed ones (those keep the old texture, which stays); <c>spr_&lt;id&gt;.spdspr</c> replaces or adds a
/// sprite record. A sprite named by an <c>spr_</c> file is not moved by a <c>tex_</c> one. Any name, ID or file the rules cannot
/// place is an <see cref="ArchiveFormatException"/>.
/// </summary>
internal sealed class SpdPlan
{
    private readonly SpdIndex _original;
    private readonly Dictionary<int, SpdPlannedSprite> _sprites = new();
    private readonly List<int> _spriteOrder = [];

    public List<SpdNewTexture> NewTextures { get; } = [];
    public IEnumerable<SpdPlannedSprite> Sprites => _spriteOrder.Select(id => _sprites[id]);

    private SpdPlan(SpdIndex original)
    {
        _original = original;
        foreach (var sprite in original.Sprites)
        {
            _sprites[sprite.Id] = new SpdPlannedSprite(sprite.Id, sprite.Record, null, false);
            _spriteOrder.Add(sprite.Id);
        }
    }

    public static SpdPlan Make(SpdIndex original, ArchivePatch patch)
    {
        var plan = new SpdPlan(original);
        var named = new List<(SpdModName Name, EntryChange Change)>();
        foreach (var change in patch.Changes)
        {
            string key = change.Key.Name ?? change.Key.ToString();
            if (change.IsDelete)
                throw plan.Refuse($"'{key}' (from {change.Origin}): an SPD's textures and sprites cannot be deleted, only replaced or added");
            if (change.Key.IsIndex || SpdModName.Parse(key) is not { } name)
                throw plan.Refuse($"'{key}' (from {change.Origin}) names no SPD texture or sprite; the names are {SpdModName.Rules}");
            named.Add((name, change));
        }
        foreach (var (name, change) in named.Where(n => n.Name.Kind == SpdModKind.SpriteRecord))
            plan.SetRecord(name.Sprites[0].First, change);

        int nextId = original.Textures.Count == 0 ? 0 : original.Textures.Max(t => t.Id) + 1;
        var textures = named.Where(n => n.Name.Kind != SpdModKind.SpriteRecord)
            .OrderBy(n => n.Change.Key.Name, StringComparer.OrdinalIgnoreCase).ToList();
        var newIds = new Dictionary<EntryChange, int>();
        foreach (var (_, change) in textures)
        {
            if (nextId == int.MaxValue)
                throw plan.Refuse($"'{change.Key.Name}' (from {change.Origin}): no texture ID is left to give it");
            newIds[change] = nextId;
            plan.NewTextures.Add(new SpdNewTexture(nextId, plan.TextureRecord(nextId, change), change));
            nextId++;
        }

        var moved = new Dictionary<int, EntryChange>(); // sprite id → the DDS file it now draws from
        foreach (var (name, change) in textures.Where(t => t.Name.Kind == SpdModKind.TextureForSprites))
        {
            foreach (int id in plan.Listed(name, change))
            {
                if (!moved.TryAdd(id, change))
                    throw plan.Refuse($"sprite {id} is named by both '{moved[id].Key.Name}' ({moved[id].Origin}) and '{change.Key.Name}' ({change.Origin})");
            }
        }
        var byTexture = new Dictionary<int, EntryChange>();
        var originalTextures = original.Textures.Select(t => t.Id).ToHashSet();
        foreach (var (name, change) in textures.Where(t => t.Name.Kind == SpdModKind.TextureForSpritesOn))
        {
            if (!originalTextures.Contains(name.TextureId))
                throw plan.Refuse($"'{change.Key.Name}' (from {change.Origin}): the SPD has no texture {name.TextureId}");
            if (!byTexture.TryAdd(name.TextureId, change))
                throw plan.Refuse($"texture {name.TextureId} is replaced by both '{byTexture[name.TextureId].Key.Name}' ({byTexture[name.TextureId].Origin}) and '{change.Key.Name}' ({change.Origin})");
            var kept = plan.Listed(name, change).ToHashSet();
            foreach (var sprite in plan.Sprites.Where(s => TextureOf(s.Record) == name.TextureId && !kept.Contains(s.Id)).ToList())
                moved.TryAdd(sprite.Id, change); // a sprite an spr_ file names keeps that one
        }

        foreach (var (id, change) in moved)
            plan.PointAt(id, newIds[change], change);
        plan.CheckRecordTextures(originalTextures, newIds.Values);
        return plan;
    }

    internal static int TextureOf(byte[] spriteRecord) => BinaryPrimitives.ReadInt32LittleEndian(spriteRecord.AsSpan(4));

    /// <summary>The sprite IDs a name lists, each one a sprite of the emulated SPD; a hostile range fails before it is walked.</summary>
    private IEnumerable<int> Listed(SpdModName name, EntryChange change)
    {
        foreach (var (first, last) in name.Sprites)
        {
            if ((long)last - first + 1 > _sprites.Count)
                throw Refuse($"'{change.Key.Name}' (from {change.Origin}) lists sprites {first}-{last}, more than the SPD's {_sprites.Count}");
            for (int id = first; id <= last; id++)
            {
                if (!_sprites.ContainsKey(id))
                    throw Refuse($"'{change.Key.Name}' (from {change.Origin}) names sprite {id}, which the SPD does not have (an spr_{id}.spdspr file adds it)");
                yield return id;
            }
        }
    }

    private void SetRecord(int id, EntryChange change)
    {
        var input = change.Input!;
        if (input.Length != SpdFormat.SpriteRecordSize)
            throw Refuse($"'{change.Key.Name}': {input} is {input.Length} bytes; a sprite record is {SpdFormat.SpriteRecordSize}");
        var record = new byte[SpdFormat.SpriteRecordSize];
        if (input.Read(0, record) != record.Length)
            throw Refuse($"'{change.Key.Name}': {input} ended early");
        int stored = BinaryPrimitives.ReadInt32LittleEndian(record);
        if (stored != id)
            throw Refuse($"'{change.Key.Name}': {input} holds sprite {stored}, not {id}");
        bool added = !_sprites.ContainsKey(id);
        if (added)
            _spriteOrder.Add(id);
        _sprites[id] = new SpdPlannedSprite(id, record, change, added);
    }

    private void PointAt(int spriteId, int textureId, EntryChange textureChange)
    {
        var sprite = _sprites[spriteId];
        var record = (byte[])sprite.Record.Clone();
        BinaryPrimitives.WriteInt32LittleEndian(record.AsSpan(4), textureId);
        _sprites[spriteId] = sprite with { Record = record, Change = sprite.Change ?? textureChange };
    }

    /// <summary>A sprite record a mod gave without a texture of its own must draw from a texture the SPD will have.</summary>
    private void CheckRecordTextures(HashSet<int> originalTextures, IEnumerable<int> newIds)
    {
        var all = originalTextures.Concat(newIds).ToHashSet();
        foreach (var sprite in Sprites.Where(s => s.Change is { } c && c.Key.Name!.EndsWith(".spdspr", StringComparison.OrdinalIgnoreCase)))
        {
            if (!all.Contains(TextureOf(sprite.Record)))
                throw Refuse($"'{sprite.Change!.Key.Name}' (from {sprite.Change.Origin}): sprite {sprite.Id} draws from texture {TextureOf(sprite.Record)}, which the SPD does not have");
        }
    }

    /// <summary>
    /// The record of an appended texture, as FEF writes it: id, 0, offset (set at layout), size, width and height from the DDS
    /// header (at 0x10 and 0x0C), 0, 0, and the name <c>texture_&lt;id&gt;</c> in 16 bytes.
    /// </summary>
    private byte[] TextureRecord(int id, EntryChange change)
    {
        var input = change.Input!;
        Span<byte> dds = stackalloc byte[DdsHeaderSize];
        if (input.Length < DdsHeaderSize || input.Read(0, dds) != DdsHeaderSize || !dds.StartsWith("DDS "u8))
            throw Refuse($"'{change.Key.Name}' (from {change.Origin}): {input} is not a DDS file (no 'DDS ' magic and {DdsHeaderSize}-byte header)");
        if (input.Length > int.MaxValue)
            throw Refuse($"'{change.Key.Name}': {input} is {input.Length} bytes; SPD sizes stop at 2 GiB");
        var record = new byte[SpdFormat.TextureRecordSize];
        BinaryPrimitives.WriteInt32LittleEndian(record, id);
        BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(0x0C), (uint)input.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(0x10), BinaryPrimitives.ReadUInt32LittleEndian(dds[0x10..]));
        BinaryPrimitives.WriteUInt32LittleEndian(record.AsSpan(0x14), BinaryPrimitives.ReadUInt32LittleEndian(dds[0x0C..]));
        var name = Encoding.ASCII.GetBytes($"texture_{id}");
        name.AsSpan(0, Math.Min(name.Length, 16)).CopyTo(record.AsSpan(0x20));
        return record;
    }

    private const int DdsHeaderSize = 0x80;

    private ArchiveFormatException Refuse(string problem) => new(_original.Source.Name, 0, problem);
}
