using System.Text.Json;

namespace ArchiveEmu.Cli.Commands;

/// <summary>How every <c>--json</c> output is written: indented, nulls kept, property names as declared (snake_case).</summary>
internal static class JsonOutput
{
    public static JsonSerializerOptions Options { get; } = new() { WriteIndented = true };
}
