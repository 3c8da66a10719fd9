#!/usr/bin/env bash
# Builds archiveemu from this repository with the .NET SDK and installs it as one file that needs no .NET to run:
#   ./install.sh [--prefix DIR] [--rid linux-x64|linux-arm64|win-x64] [--single-file]
# Linux, on the machine's own architecture: NativeAOT (needs clang and zlib too), else the single-file self-contained
# build. win-x64, or another architecture than this machine's: the single-file build (cross-building NativeAOT needs an
# arm64 toolchain this script does not ask for; .ci/release has it). No SDK? Releases install with one command
# (docs/INSTALL.md, "From a release").
# The program is built in a temp folder and moved into DIR/bin in one step: a failed build leaves the old one in place.
# docs/INSTALL.md explains it for players (the Steam Deck, Windows, uninstalling).
set -euo pipefail
cd "$(dirname "$0")"

usage() {
  echo "usage: ./install.sh [--prefix DIR] [--rid linux-x64|linux-arm64|win-x64] [--single-file]"
  echo "  --prefix DIR   install into DIR/bin (default ~/.local)"
  echo "  --rid RID      the system to build for (default: this machine's, $(machine_rid))"
  echo "  --single-file  the single-file self-contained build even where NativeAOT works (larger, starts slower)"
}

machine_rid() {
  case $(uname -m) in
    x86_64 | amd64) echo linux-x64 ;;
    aarch64 | arm64) echo linux-arm64 ;;
    *) echo "unsupported-$(uname -m)" ;;
  esac
}

prefix=${HOME:?HOME is not set}/.local
rid=$(machine_rid)
single_file=false
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --rid) [ $# -ge 2 ] || { usage >&2; exit 2; }; rid=$2; shift 2 ;;
    --rid=*) rid=${1#*=}; shift ;;
    --single-file) single_file=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case $rid in
  linux-x64 | linux-arm64 | win-x64) ;;
  *) echo "install.sh: --rid takes linux-x64, linux-arm64 or win-x64, not '$rid'" >&2; exit 2 ;;
esac
[ -n "$prefix" ] || { echo "install.sh: --prefix is empty" >&2; exit 2; }
mkdir -p "$prefix/bin"
prefix=$(cd "$prefix" && pwd)

if ! command -v dotnet >/dev/null; then
  echo "install.sh: the .NET 10 SDK is needed to build archiveemu, and 'dotnet' is not on PATH." >&2
  echo "  Debian/Ubuntu: see https://learn.microsoft.com/dotnet/core/install/linux" >&2
  echo "  without root (a Steam Deck too): curl -sSLO https://dot.net/v1/dotnet-install.sh &&" \
    "bash dotnet-install.sh --channel 10.0 --install-dir ~/.dotnet && export PATH=\"\$HOME/.dotnet:\$PATH\"" >&2
  echo "  (only building needs it: the installed archiveemu runs without .NET)" >&2
  exit 1
fi
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

# NativeAOT links with clang against zlib; it builds only for this machine's own system and architecture.
aot=false
if [ "$single_file" = false ] && [ "$rid" = "$(machine_rid)" ]; then
  if ! command -v clang >/dev/null; then
    why="clang is not installed"
  elif ! echo 'int main(void) { return 0; }' | clang -x c - -lz -o /dev/null 2>/dev/null; then
    why="zlib's development files are not installed (clang cannot link -lz)"
  else
    aot=true
  fi
  if [ "$aot" = false ]; then
    echo "install.sh: NativeAOT needs clang and zlib, and $why (Debian/Ubuntu: sudo apt-get install clang zlib1g-dev;"
    echo "  Fedora: sudo dnf install clang zlib-devel); building the single-file self-contained program instead"
  fi
elif [ "$single_file" = false ]; then
  echo "install.sh: $rid is not this machine's system ($(machine_rid)), and NativeAOT for another system needs its" \
    "toolchain (.ci/release has the arm64 one): building the single-file self-contained program"
fi

exe=archiveemu
[ "$rid" = win-x64 ] && exe=archiveemu.exe
work=$(mktemp -d "${TMPDIR:-/tmp}/archiveemu-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ "$aot" = true ]; then
  kind="NativeAOT"
  build=(-p:PublishAot=true)
else
  kind="single-file self-contained"
  build=(--self-contained -p:PublishSingleFile=true -p:IncludeNativeLibrariesForSelfExtract=true -p:PublishReadyToRun=true)
fi
echo "install.sh: building archiveemu for $rid ($kind; the first build downloads packages and takes a few minutes)"
dotnet publish src/ArchiveEmu.Cli -c Release -r "$rid" "${build[@]}" \
  -p:UseArtifactsOutput=true -p:ArtifactsPath="$work/artifacts" -o "$work/out" -nologo -v:q -clp:ErrorsOnly
[ -f "$work/out/$exe" ] || { echo "install.sh: the build gave no $exe" >&2; exit 1; }

# One file is all it needs (the host's settings have their defaults built in); copied beside, then renamed over.
dest="$prefix/bin/$exe"
install -m 755 "$work/out/$exe" "$dest.new.$$"
mv -f "$dest.new.$$" "$dest"
echo "install.sh: installed $dest ($kind, $(($(stat -c %s "$dest") / 1048576)) MiB)"

if [ "$rid" = "$(machine_rid)" ]; then
  echo "install.sh: $dest --version: $("$dest" --version)"
else
  echo "install.sh: not run here ($rid is not this machine's system); copy it to a $rid machine"
fi
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "install.sh: $prefix/bin is not on your PATH; for a terminal, add it: echo 'export PATH=\"$prefix/bin:\$PATH\"' >> ~/.bashrc" ;;
esac
# Steam reads no ~/.bashrc: a launch option naming only "archiveemu" fails there with "archiveemu: not found" (exit 127,
# no log). The line to copy names the real path, quoted.
echo "Steam launch option: \"$(cd "$(dirname "$dest")" && pwd -P)/$exe\" run --reloaded -- %command%"
# Where archiveemu itself puts its folders: an XDG variable holding an absolute path, else the fallback under HOME.
xdg() { case ${1:-} in /*) echo "$1" ;; *) echo "$HOME/$2" ;; esac; }
echo "To uninstall:"
echo "  rm -f '$dest'"
echo "  rm -rf '$(xdg "${XDG_CACHE_HOME:-}" .cache)/archiveemu'   # the merged file cache, if you used it"
echo "  rm -rf '$(xdg "${XDG_CONFIG_HOME:-}" .config)/archiveemu/profiles'   # your profiles (archiveemu profile save)"
echo "  rm -rf '$(xdg "${XDG_STATE_HOME:-}" .local/state)/archiveemu/logs'   # the logs of archiveemu run"
