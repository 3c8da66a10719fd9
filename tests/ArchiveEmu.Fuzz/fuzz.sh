#!/usr/bin/env bash
# Coverage-guided fuzzing of one target with afl++ and SharpFuzz (docs/RELIABILITY.md, "Coverage-guided fuzzing").
#   tests/ArchiveEmu.Fuzz/fuzz.sh <target> [minutes]      (targets: `fuzz.sh list`)
# Builds the fuzz program, instruments a copy of ArchiveEmu.Core.dll (and the target's other assemblies), starts afl-fuzz from the target's seeds and its
# committed corpus (tests/fuzz-corpus/<target>), then minimises what afl kept (afl-cmin; afl-tmin with TMIN=1) into
# that corpus folder. Needs afl++ (Debian: apt-get install afl++); installs SharpFuzz.CommandLine into a tool folder of
# its own. Crashes and hangs are left in the work folder it prints, and make it exit 1.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
project="$repo/tests/ArchiveEmu.Fuzz"
build="$project/bin/Release/net10.0"
target="${1:?usage: fuzz.sh <target> [minutes]  (fuzz.sh list: the targets)}"
minutes="${2:-10}"
timeout_ms="${AFL_TIMEOUT_MS:-3000}"
tools="${ARCHIVEEMU_FUZZ_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/archiveemu-fuzz-tools}"
sharpfuzz_version=2.3.0

command -v afl-fuzz >/dev/null || { echo "fuzz.sh: afl-fuzz not found; install afl++ (Debian: apt-get install afl++)" >&2; exit 1; }

dotnet build "$project" -c Release --nologo -v quiet >/dev/null
if [[ "$target" == list ]]; then
    dotnet "$build/ArchiveEmu.Fuzz.dll" targets
    exit 0
fi
dotnet "$build/ArchiveEmu.Fuzz.dll" targets | grep -qx "$target" || { echo "fuzz.sh: no target '$target' (fuzz.sh list)" >&2; exit 2; }

if [[ ! -x "$tools/sharpfuzz" ]]; then
    dotnet tool install SharpFuzz.CommandLine --version "$sharpfuzz_version" --tool-path "$tools" >/dev/null
fi

# Not under /tmp: afl-cmin refuses to work there.
mkdir -p "$tools/../archiveemu-fuzz-work"
work="$(mktemp -d "$(cd "$tools/../archiveemu-fuzz-work" && pwd)/$target.XXXXXX")"
echo "fuzz.sh: $target for $minutes min in $work"
# The instrumented copy: only the code under test (ArchiveEmu.Core.dll; the profile target's archiveemu.dll too: `ArchiveEmu.Fuzz
# instrument <target>`), never the build in the repository.
cp -r "$build" "$work/bin"
while read -r assembly; do
    "$tools/sharpfuzz" "$work/bin/$assembly" >/dev/null
done < <(dotnet "$build/ArchiveEmu.Fuzz.dll" instrument "$target")

# Seeds from the program (before instrumenting mattered not: it runs from the repository's build), plus the corpus so far.
mkdir -p "$work/in"
dotnet "$build/ArchiveEmu.Fuzz.dll" seeds "$target" "$work/in" >/dev/null
corpus="$repo/tests/fuzz-corpus/$target"
if [[ -d "$corpus" ]]; then
    cp "$corpus"/* "$work/in/" 2>/dev/null || true
fi

export AFL_SKIP_BIN_CHECK=1                     # dotnet itself carries no afl instrumentation; SharpFuzz reports coverage
export AFL_SKIP_CPUFREQ=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_AFFINITY=1                        # a shared machine: do not claim a core
export AFL_NO_UI=1
export DOTNET_TieredPGO=0                       # steadier timing from input to input
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp"                       # afl kills the program, so its scratch folder goes with the work folder

run=("$(readlink -f "$(command -v dotnet)")" "$work/bin/ArchiveEmu.Fuzz.dll" "$target")
afl-fuzz -i "$work/in" -o "$work/out" -t "$timeout_ms" -m none -V $((minutes * 60)) -- "${run[@]}" > "$work/afl.log" 2>&1 || {
    echo "fuzz.sh: afl-fuzz failed; last lines of $work/afl.log:" >&2
    tail -n 20 "$work/afl.log" >&2
    exit 1
}

stats="$work/out/default/fuzzer_stats"
field() { awk -F' *: *' -v k="$1" '$1 == k { print $2 }' "$stats"; }

# Minimise: the smallest set of inputs that keeps afl's coverage, then (TMIN=1) each input shrunk.
afl-cmin -i "$work/out/default/queue" -o "$work/cmin" -t "$timeout_ms" -m none -- "${run[@]}" > "$work/cmin.log" 2>&1
if [[ "${TMIN:-0}" == 1 ]]; then
    mkdir -p "$work/tmin"
    for f in "$work/cmin"/*; do
        afl-tmin -i "$f" -o "$work/tmin/$(basename "$f")" -t "$timeout_ms" -m none -- "${run[@]}" >/dev/null 2>&1 || cp "$f" "$work/tmin/"
    done
    minimised="$work/tmin"
else
    minimised="$work/cmin"
fi
# The committed corpus stays small (a few MB over all targets): the smallest minimised inputs within a budget per target.
budget=$(( ${CORPUS_BUDGET_KB:-300} * 1024 ))
rm -rf "$corpus"
mkdir -p "$corpus"
kept=0 total=0
while read -r size f; do
    (( total + size <= budget )) || continue
    cp "$f" "$corpus/$(sha1sum "$f" | cut -c1-16)"
    total=$(( total + size )) kept=$(( kept + 1 ))
done < <(find "$minimised" -type f -printf '%s %p\n' | sort -n)
echo "fuzz.sh: afl-cmin kept $(find "$minimised" -type f | wc -l) inputs; $kept of them (the smallest, $total bytes) are the corpus"

crashes=$(find "$work/out/default/crashes" -type f -name 'id:*' | wc -l)
hangs=$(find "$work/out/default/hangs" -type f -name 'id:*' | wc -l)
printf '%s: %s s fuzzed, %s execs, %s paths (corpus_count), %s crashes, %s hangs, %s files in tests/fuzz-corpus/%s (%s)\n' \
    "$target" "$(field run_time)" "$(field execs_done)" "$(field corpus_count)" "$crashes" "$hangs" \
    "$(find "$corpus" -type f | wc -l)" "$target" "$(du -sh "$corpus" | cut -f1)"
if (( crashes + hangs > 0 )); then
    echo "fuzz.sh: findings in $work/out/default/crashes and hangs" >&2
    exit 1
fi
rm -rf "$work"
