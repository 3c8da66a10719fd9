namespace ArchiveEmu.Core.Formats.Acb;

/// <summary>
/// Which ACBs of an AWB's folder (game folder or archive) describe it (docs/DESIGN.md, "ACB follows its AWB"): the one
/// named like it with <c>.acb</c>, letter case aside (the exact spelling first); when there is none, every ACB whose
/// StreamAwbHash table names the AWB in its Name column (the AWB's file name without <c>.awb</c>, case aside;
/// docs/FORMATS.md, "CRI ACB"). Two or more that name one AWB all follow it, with one warning naming them.
/// </summary>
internal static class AcbSiblings
{
    /// <summary>
    /// The ACBs among <paramref name="siblings"/> that follow the AWB at <paramref name="awbRelative"/>; <paramref name="folder"/>
    /// is their folder's route path with a trailing '/' (or ""), for warnings. Finding the ACBs that name it reads each ACB
    /// of the folder (its @UTF table), only when no ACB is named like the AWB.
    /// </summary>
    public static IReadOnlyList<Sibling> Of(string awbRelative, IEnumerable<Sibling> siblings, string folder, List<string> warnings)
    {
        string baseName = awbRelative[(awbRelative.LastIndexOf('/') + 1)..];
        baseName = baseName.Contains('.') ? baseName[..baseName.LastIndexOf('.')] : baseName;
        string wanted = baseName + ".acb";
        var acbs = siblings.Where(c => c.Name.EndsWith(".acb", StringComparison.OrdinalIgnoreCase)).OrderBy(c => c.Name, StringComparer.Ordinal).ToList();
        var same = acbs.FirstOrDefault(c => c.Name == wanted) ?? acbs.FirstOrDefault(c => string.Equals(c.Name, wanted, StringComparison.OrdinalIgnoreCase));
        var chosen = same is not null ? [same] : acbs.Where(c => c.Unusable is null && NamesAwb(c.Source, baseName)).ToList();
        if (chosen.Count > 1)
            warnings.Add($"{awbRelative}: {chosen.Count} ACBs name it in their StreamAwbHash ({string.Join(", ", chosen.Select(c => folder + c.Name))}); each follows it");
        foreach (var c in chosen.Where(c => c.Unusable is not null))
            warnings.Add($"{folder}{c.Name}: does not follow {awbRelative}: it is {c.Unusable}; the AWB is served emulated, the ACB as it is");
        return chosen.Where(c => c.Unusable is null).ToList();
    }

    // Whether the ACB keeps a streamed AWB named `awbName`; an ACB that does not parse names nothing (it is not this AWB's
    // to warn about: it may describe no AWB at all).
    private static bool NamesAwb(ArchiveSource acb, string awbName)
    {
        try
        {
            var names = AcbFile.Read(acb).StreamAwbHash?.Nested;
            if (names is null || !names.Has("Name"))
                return false;
            for (int row = 0; row < names.Rows.Count; row++)
                if (string.Equals(names.GetString(row, "Name"), awbName, StringComparison.OrdinalIgnoreCase))
                    return true;
            return false;
        }
        catch (Exception e) when (e is ArchiveFormatException or IOException)
        {
            return false;
        }
    }
}
