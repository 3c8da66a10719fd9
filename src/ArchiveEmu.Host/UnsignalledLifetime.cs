using Microsoft.Extensions.Hosting;

namespace ArchiveEmu.Host;

/// <summary>
/// A host lifetime that leaves Ctrl+C and SIGTERM alone, for <c>archiveemu run</c>: the signals are forwarded to the
/// child program, and the mount stays until the child has exited (the console lifetime would unmount under it).
/// </summary>
internal sealed class UnsignalledLifetime : IHostLifetime
{
    public Task WaitForStartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
