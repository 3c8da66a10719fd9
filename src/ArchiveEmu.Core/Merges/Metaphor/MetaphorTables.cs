using ArchiveEmu.Core.Merges.Tables;

namespace ArchiveEmu.Core.Merges.Metaphor;

/// <summary>
/// The tables Metaphor Essentials (<c>DeathChaos25/mrfpc.modloader</c> 1.0.2, <c>Merging/Tbl/MRFTblMerger.cs</c>) merges: 58
/// files at their paths inside Metaphor: ReFantazio's one CPK (its bind key <c>R2\COMMON\…</c> less the <c>R2</c>), each one
/// run of fields of the width it passes to <c>GeneratePatchGeneric</c>. Transcribed in its order (docs/TABLES.md, "Metaphor").
/// </summary>
internal static class MetaphorTables
{
    private const string Table = "COMMON/battle/table/", Data = "COMMON/init/data/";

    public static IReadOnlyList<MergeableTable> All { get; } =
    [
        Flat(Table + "ITEMCATEGORY.bin", 1),
        Flat(Table + "MASK.bin", 4),
        Flat(Table + "SynSequenceData.bin", 4),
        Flat(Table + "A_Visual_Data.bin", 4),
        Flat(Table + "E_Visual_Data.bin", 4),
        Flat(Table + "P_Visual_Data.bin", 4),
        Flat(Table + "Allied.tbl", 4),
        Flat(Table + "Chara.tbl", 4),
        Flat(Table + "Class.tbl", 4),
        Flat(Table + "ClassAffinity.tbl", 2),
        Flat(Table + "ClassTrait.tbl", 2),
        Flat(Table + "Encount.tbl", 4),
        Flat(Table + "Enemy.tbl", 4),
        Flat(Table + "EnemyAffinity.tbl", 2),
        Flat(Table + "ItemAccessory.tbl", 2),
        Flat(Table + "ItemArmor.tbl", 2),
        Flat(Table + "ItemConsumable.tbl", 2),
        Flat(Table + "ItemCostume.tbl", 2),
        Flat(Table + "ItemEvent.tbl", 2),
        Flat(Table + "ItemSubArmor.tbl", 2),
        Flat(Table + "ItemWeapon.tbl", 2),
        Flat(Table + "Skill.tbl", 4),
        Flat(Table + "SkillMotion.tbl", 1),
        Flat(Table + "SkillNormal.tbl", 2),
        Flat("COMMON/battle/sound/Rf_ATKSE_DATA.bin", 2),
        Flat(Data + "AbilityTable.bin", 4),
        Flat(Data + "AreaEnvUpFilter.bin", 4),
        Flat(Data + "BattleModel_ArcheType.bin", 2),
        Flat(Data + "BattleModel_Chara.bin", 2),
        Flat(Data + "BattleModel_Enemy.bin", 2),
        Flat(Data + "character_costume_variety.bin", 1),
        Flat(Data + "CharacterClothesData.bin", 2),
        Flat(Data + "CharaID.bin", 2),
        Flat(Data + "EnemyID.bin", 2),
        Flat(Data + "NpcID.bin", 4),
        Flat(Data + "resrcExistData.bin", 4),
        Flat(Data + "ResrcNpcModelComb.bin", 4),
        Flat(Data + "ResrcNpcModelCombEvent.bin", 4),
        Flat(Data + "SafeRoomCharacterClothesData.bin", 1),
        Flat(Data + "ShopTable.bin", 2),
        Flat(Data + "ShopTypeTable.bin", 2),
        Flat(Data + "SummonItemData.bin", 2),
        // weaponModel11 and weaponModel16 are not in Essentials' list: they are served whole, the last mod's.
        .. new[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 17 }.Select(n => Flat($"{Data}weaponModel{n}.bin", 4)),
        Flat(Data + "wipeData.bin", 4),
    ];

    private static MergeableTable Flat(string path, int width) => MergeableTable.Flat(path, width);
}
