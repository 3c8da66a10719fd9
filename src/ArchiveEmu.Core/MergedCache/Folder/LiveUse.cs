using ArchiveEmu.Core.Interop;

namespace ArchiveEmu.Core.MergedCache.Folder;

/// <summary>
/// The entries a long-running process (a mount) serves, so a size-capped gc in another process never removes one: a file
/// <c>live/&lt;pid&gt;-&lt;n&gt;</c> of the keys it used, held open (a shared lock on Linux, an open without delete sharing on
/// Windows) for as long as the process lives. The kernel drops the hold when the process dies, so a file nobody holds is stale.
/// </summary>
internal sealed class LiveUse(string cacheFolder) : IDisposable
{
    internal const string FolderName = "live";

    private readonly HashSet<string> _keys = new(StringComparer.Ordinal);
    private FileStream? _file;
    private bool _failed;

    /// <summary>Adds <paramref name="key"/> to this process's file (once); a cache that takes no file records nothing.</summary>
    public void Record(string key)
    {
        lock (_keys)
        {
            if (_failed || !_keys.Add(key))
                return;
            try
            {
                _file ??= Create();
                _file.Write(System.Text.Encoding.ASCII.GetBytes(key + "\n"));
                _file.Flush();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                _failed = true; // a read-only cache is never collected by this process's user either
            }
        }
    }

    /// <summary>Ends this process's hold and deletes its file: nothing it served is in use any more.</summary>
    public void Dispose()
    {
        lock (_keys)
        {
            if (_file is null)
                return;
            var path = _file.Name;
            _file.Dispose();
            _file = null;
            _failed = true; // uses after the end are not live
            try
            {
                File.Delete(path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // the next gc deletes a file nobody holds
            }
        }
    }

    private FileStream Create()
    {
        var folder = Path.Combine(cacheFolder, FolderName);
        PrivateFiles.CreateFolder(folder);
        var path = Path.Combine(folder, $"{Environment.ProcessId}-{Guid.NewGuid():N}"); // a pid is reused; the name never
        return PrivateFiles.Open(path, FileMode.CreateNew, FileAccess.Write, FileShare.ReadWrite);
    }

    /// <summary>The keys live processes hold in <paramref name="cacheFolder"/>; files no process holds any more are deleted.</summary>
    public static HashSet<string> KeysInUse(string cacheFolder)
    {
        var keys = new HashSet<string>(StringComparer.Ordinal);
        var folder = Path.Combine(cacheFolder, FolderName);
        if (!Directory.Exists(folder))
            return keys;
        foreach (var file in Directory.EnumerateFiles(folder))
        {
            try
            {
                new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.None).Dispose(); // an exclusive open: nobody holds it
                File.Delete(file);
                continue;
            }
            catch (FileNotFoundException)
            {
                continue; // deleted meanwhile
            }
            catch (IOException)
            {
                // held by a live process: its keys are in use
            }
            try
            {
                using var reader = new StreamReader(new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete));
                while (reader.ReadLine() is { } line)
                    if (line.Length > 0)
                        keys.Add(line);
            }
            catch (FileNotFoundException)
            {
                // its process ended meanwhile
            }
        }
        return keys;
    }
}
