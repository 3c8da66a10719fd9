using System.Diagnostics;
using System.Runtime.InteropServices;
using ArchiveEmu.Host.Interop;

namespace ArchiveEmu.Host.Fuse.Kernel;

/// <summary>
/// A normal user's FUSE mount, made the way libfuse makes it: fusermount3 (setuid root, Debian package fuse3) opens
/// /dev/fuse, mounts it, and hands the open descriptor back over a socket named in <c>_FUSE_COMMFD</c> (SCM_RIGHTS).
/// The host then speaks the protocol on that descriptor itself, as it does as root, without libfuse. fusermount3 adds
/// fd, rootmode, user_id and group_id, and nosuid,nodev for a user; it refuses allow_other unless /etc/fuse.conf
/// says user_allow_other.
/// </summary>
internal static unsafe class Fusermount
{
    private const int AfUnix = 1, SockStream = 1, SockCloexec = 0x80000, FSetFd = 2;
    private const int SolSocket = 1, ScmRights = 1, MsgCmsgCloexec = 0x40000000;
    private static readonly TimeSpan MountWait = TimeSpan.FromSeconds(30);

    /// <summary>fusermount3's path, or null when it is not on PATH.</summary>
    public static string? Program => ProgramSearch.OnPath("fusermount3");

    /// <summary>The line for a normal user without fusermount3.</summary>
    public const string Missing = "fusermount3 is not on PATH: a normal user mounts through it (Debian/Ubuntu: sudo apt-get install fuse3; SteamOS has it)";

    /// <summary>
    /// Mounts a FUSE connection at <paramref name="mountPoint"/> with <paramref name="options"/> (a -o list) and returns
    /// its /dev/fuse descriptor (close-on-exec). Throws <see cref="IOException"/> naming the mount point and
    /// fusermount3's own reason.
    /// </summary>
    public static int Mount(string mountPoint, string options)
    {
        string program = Program ?? throw new IOException($"{mountPoint}: {Missing}");
        int* pair = stackalloc int[2];
        if (LibC.SocketPair(AfUnix, SockStream | SockCloexec, 0, pair) != 0)
            throw new IOException($"{mountPoint}: cannot make a socket for fusermount3 ({Errno.Describe(Marshal.GetLastPInvokeError())})");
        int ours = pair[0], theirs = pair[1];
        try
        {
            // fusermount3 must inherit its end: the only descriptor this process leaves open across exec.
            if (LibC.Fcntl(theirs, FSetFd, 0) != 0)
                throw new IOException($"{mountPoint}: cannot pass a socket to fusermount3 ({Errno.Describe(Marshal.GetLastPInvokeError())})");
            var start = new ProcessStartInfo(program, ["-o", options, "--", mountPoint])
            {
                UseShellExecute = false,
                RedirectStandardError = true,
                RedirectStandardOutput = true,
            };
            start.Environment["_FUSE_COMMFD"] = theirs.ToString(System.Globalization.CultureInfo.InvariantCulture);
            string errors;
            using (var process = Process.Start(start) ?? throw new IOException($"{mountPoint}: could not start {program}"))
            {
                Core.Interop.LibC.Close(theirs);
                theirs = -1;
                var stderr = process.StandardError.ReadToEndAsync();
                if (!process.WaitForExit(MountWait))
                {
                    process.Kill();
                    throw new IOException($"{mountPoint}: fusermount3 did not finish mounting within {MountWait.TotalSeconds:0} s");
                }
                errors = stderr.Result.Trim();
                if (process.ExitCode != 0)
                {
                    var why = errors.Length > 0 ? errors.Split('\n')[^1] : $"exit code {process.ExitCode}";
                    throw new IOException($"{mountPoint}: fusermount3 could not mount here: {why}"
                        + (DevFuseAccess.IsRefusal(why) ? $"; /dev/fuse: {DevFuseAccess.Fix()} (archiveemu doctor checks it)" : ""));
                }
            }
            return ReceiveDescriptor(ours) is var fd and >= 0 ? fd
                : throw new IOException($"{mountPoint}: fusermount3 mounted but passed back no /dev/fuse descriptor{(errors.Length > 0 ? $" ({errors})" : "")}");
        }
        finally
        {
            Core.Interop.LibC.Close(ours);
            if (theirs >= 0)
                Core.Interop.LibC.Close(theirs);
        }
    }

    /// <summary>One descriptor sent with SCM_RIGHTS over <paramref name="socket"/>, or -1 when none came.</summary>
    private static int ReceiveDescriptor(int socket)
    {
        byte data = 0;
        var control = stackalloc byte[ControlSpace];
        new Span<byte>(control, ControlSpace).Clear();
        var iov = new IoVec { Base = &data, Length = 1 };
        var message = new MsgHdr { Iov = &iov, IovLength = 1, Control = control, ControlLength = ControlSpace };
        nint received;
        do
            received = LibC.RecvMsg(socket, &message, MsgCmsgCloexec);
        while (received < 0 && Marshal.GetLastPInvokeError() == LibC.EINTR);
        if (received <= 0 || message.ControlLength < ControlHeader + sizeof(int))
            return -1;
        var header = (CmsgHdr*)control;
        if (header->Level != SolSocket || header->Type != ScmRights)
            return -1;
        return *(int*)(control + ControlHeader);
    }

    // struct cmsghdr on 64-bit Linux: size_t len, int level, int type, then the data; CMSG_SPACE(sizeof(int)) = 24.
    private const int ControlHeader = 16, ControlSpace = 24;

    [StructLayout(LayoutKind.Sequential)]
    private struct IoVec
    {
        public byte* Base;
        public nuint Length;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct MsgHdr
    {
        public void* Name;
        public uint NameLength;
        public IoVec* Iov;
        public nuint IovLength;
        public void* Control;
        public nuint ControlLength;
        public int Flags;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct CmsgHdr
    {
        public nuint Length;
        public int Level;
        public int Type;
    }
}
