#!/bin/sh
# archiveemu's download installer, published with each release as install.sh (docs/INSTALL.md):
#   curl -fsSL <release server>/install.sh | sh
#   curl -fsSL <release server>/install.sh | sh -s -- [--prefix DIR] [--from PATH] [--allow-root]
# It reads the latest version from the release server, fetches the archive for this machine (x86_64 or aarch64 Linux),
# checks it against the release's SHA256SUMS, tries the program, and puts it in ~/.local/bin (or DIR/bin) by renaming a
# finished copy over the old one: a failure anywhere leaves the old program as it was and nothing else behind. It never
# edits shell files. The checksums come from the same server as the archive: they prove the download whole, not who made it.
# POSIX sh (dash, busybox sh). The build from a checkout is ./install.sh in the repository, not this.
set -eu

# The release server, set by .ci/release from Directory.Build.props when it publishes this script; ARCHIVEEMU_RELEASES
# goes over it.
default_base=''

say() { printf 'install.sh: %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
usage() {
  echo "usage: install.sh [--prefix DIR] [--from PATH] [--allow-root]"
  echo "  --prefix DIR   install into DIR/bin (default ~/.local)"
  echo "  --from PATH    install from a release already downloaded: its folder (the archive and SHA256SUMS),"
  echo "                 or the archive with SHA256SUMS beside it; nothing is fetched"
  echo "  --allow-root   install as root (archiveemu runs as the player who starts the game)"
  echo "the release server: ARCHIVEEMU_RELEASES=URL, default ${default_base:-none yet}"
}

prefix=
from=
allow_root=false
while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --from) [ $# -ge 2 ] || { usage >&2; exit 2; }; from=$2; shift 2 ;;
    --from=*) from=${1#*=}; shift ;;
    --allow-root) allow_root=true; shift ;;
    -h | --help) usage; exit 0 ;;
    *) printf "install.sh: unknown argument '%s'\n" "$1" >&2; usage >&2; exit 2 ;;
  esac
done

# Root would put the program and its folders where the player's Steam cannot use them as intended.
if [ "$(id -u)" -eq 0 ] && [ "$allow_root" = false ]; then
  fail "run it as your own user, or pass --allow-root"
fi
[ "$(uname -s)" = Linux ] || fail "releases are built for Linux; this is $(uname -s) (on Windows, use the win-x64 zip)"
case $(uname -m) in
  x86_64 | amd64) rid=linux-x64 ;;
  aarch64 | arm64) rid=linux-arm64 ;;
  *) fail "no release is built for this machine's architecture ($(uname -m)); there are x86_64 and aarch64 ones, or build it from the repository (docs/INSTALL.md)" ;;
esac
if [ -z "$prefix" ]; then
  [ -n "${HOME:-}" ] || fail "HOME is not set: pass --prefix DIR"
  prefix=$HOME/.local
fi
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
bin=$prefix/bin
target=$bin/archiveemu

# No write access stops it before anything is fetched: the nearest folder that exists must be writable.
probe=$bin
while [ ! -d "$probe" ]; do
  [ ! -e "$probe" ] || fail "$probe is not a folder"
  probe=$(dirname "$probe")
done
[ -w "$probe" ] || fail "cannot write to $probe (no write access): pass --prefix DIR for a folder of yours"

for tool in tar gzip sha256sum mktemp; do
  command -v "$tool" >/dev/null 2>&1 || fail "'$tool' is needed and not found"
done
work=$(mktemp -d "${TMPDIR:-/tmp}/archiveemu-get.XXXXXX") || fail "cannot make a temporary folder"
staged=
cleanup() { rm -rf "$work"; [ -z "$staged" ] || rm -f "$staged"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fetch() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" 2>"$work/fetch.err"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" 2>"$work/fetch.err"
  else
    fail "curl or wget is needed to download; or download the release yourself and pass --from PATH"
  fi || fail "could not download $1 ($(tr '\n' ' ' < "$work/fetch.err" | sed 's/ *$//'))"
}

# The version: its folder on the server and in every file name.
check_version() {
  case $1 in
    '' | *[!0-9A-Za-z.+-]*) fail "$2 does not name a version ('$1')" ;;
  esac
}

if [ -n "$from" ]; then
  # A folder is a release (its files) or a copy of the server (latest and the version's folder); a file is the archive.
  [ -e "$from" ] || fail "$from does not exist"
  if [ -d "$from" ]; then
    if [ -f "$from/latest" ]; then
      version=$(head -n 1 "$from/latest")
      check_version "$version" "$from/latest"
      from=$from/$version
    fi
    sums=$from/SHA256SUMS
    archive=
    for found in "$from"/archiveemu-*-"$rid".tar.gz; do
      [ ! -f "$found" ] || archive=$found
    done
    [ -n "$archive" ] || fail "$from holds no archiveemu-*-$rid.tar.gz"
  else
    archive=$from
    sums=$(dirname "$from")/SHA256SUMS
  fi
  [ -f "$sums" ] || fail "no SHA256SUMS beside $archive: download it from the same release too"
  name=$(basename "$archive")
  version=${name#archiveemu-}
  version=${version%-"$rid".tar.gz}
  [ "$name" = "archiveemu-$version-$rid.tar.gz" ] || fail "$archive is not a release archive for $rid (archiveemu-VERSION-$rid.tar.gz)"
  cp "$archive" "$work/$name" || fail "cannot read $archive"
  cp "$sums" "$work/SHA256SUMS" || fail "cannot read $sums"
else
  base=${ARCHIVEEMU_RELEASES:-$default_base}
  [ -n "$base" ] || fail "no release server is set: pass ARCHIVEEMU_RELEASES=URL, or download a release and pass --from PATH"
  base=${base%/}
  fetch "$base/latest" "$work/latest"
  version=$(head -n 1 "$work/latest" | tr -d '\r')
  check_version "$version" "$base/latest"
  name=archiveemu-$version-$rid.tar.gz
  say "downloading archiveemu $version for $rid from $base"
  fetch "$base/$version/SHA256SUMS" "$work/SHA256SUMS"
  fetch "$base/$version/$name" "$work/$name"
fi

# Whole and unchanged: its checksum is the one the release lists.
expected=$(awk -v f="$name" '$2 == f || $2 == "*" f { print $1; exit }' "$work/SHA256SUMS")
[ -n "$expected" ] || fail "SHA256SUMS does not list $name"
actual=$(sha256sum "$work/$name" | cut -d ' ' -f 1)
[ "$actual" = "$expected" ] || fail "$name is damaged or incomplete: its SHA-256 is $actual, SHA256SUMS says $expected"

mkdir "$work/x"
tar -xzf "$work/$name" -C "$work/x" 2>"$work/tar.err" || fail "$name cannot be unpacked ($(head -n 1 "$work/tar.err"))"
new=$work/x/archiveemu-$version-$rid/archiveemu
[ -f "$new" ] || fail "$name holds no archiveemu-$version-$rid/archiveemu"
says=$("$new" --version 2>"$work/run.err") || fail "the downloaded archiveemu does not start here ($(head -n 1 "$work/run.err"))"

mkdir -p "$bin" || fail "cannot make $bin"
staged=$bin/.archiveemu.new.$$
{ cp "$new" "$staged" && chmod 755 "$staged"; } || fail "cannot write $staged"
mv -f "$staged" "$target" || fail "cannot replace $target"
staged=
say "installed $target ($says)"

case ":${PATH:-}:" in
  *":$bin:"*) ;;
  *) say "$bin is not on your PATH; for a terminal, add it: echo 'export PATH=\"$bin:\$PATH\"' >> ~/.bashrc" ;;
esac
# Steam reads no ~/.bashrc: the launch option names the real path, quoted (the same line ./install.sh ends with).
echo "Steam launch option: \"$(cd "$bin" && pwd -P)/archiveemu\" run --reloaded -- %command%"
echo "To update: \"$target\" update; to uninstall: rm -f '$target' (docs/INSTALL.md lists the folders it makes)"
