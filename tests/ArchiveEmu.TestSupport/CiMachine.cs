namespace ArchiveEmu.TestSupport;

/// <summary>
/// CI's machine (root, /dev/fuse, a recent Linux with its config readable, transparent huge pages): where
/// <see cref="Variable"/> is 1 (set by .ci/run), a test that would skip for want of one of these fails instead, so what
/// CI reports as passed was run. Elsewhere such a test skips, saying why.
/// </summary>
public static class CiMachine
{
    /// <summary>Set to 1 by .ci/run.</summary>
    public const string Variable = "ARCHIVEEMU_CI";

    public static bool IsCi => Environment.GetEnvironmentVariable(Variable) == "1";

    /// <summary>Lets the test run when <paramref name="missingReason"/> is null; else fails it on CI's machine and skips it elsewhere.</summary>
    public static void Require(string? missingReason) => Require(missingReason, IsCi);

    /// <summary>Lets the test run as root; else skips it, saying <paramref name="why"/> it needs root (fails it on CI's machine, which is root).</summary>
    public static void RequireRoot(string why) => Require(Environment.UserName == "root" ? null : $"needs root: {why}");

    public static void Require(string? missingReason, bool onCi)
    {
        if (missingReason is null)
            return;
        if (onCi)
            Assert.Fail($"cannot run here: {missingReason} ({Variable}=1 says this machine must run it)");
        Assert.Ignore($"skipped: {missingReason}");
    }
}
