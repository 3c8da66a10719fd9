#!/bin/sh
# Runs a mount benchmark (`loadtrace`, `bigmount`) as a player's machine reads (issue 47): the reader and the mount in one
# blkio cgroup capping disk reads, optionally as a normal user (through fusermount3) and with the disk's read-ahead set as
# on a Steam Deck (128 KiB). Run as root from the repository, after `dotnet build -c Release tests/ArchiveEmu.Benchmarks`:
#   sh tests/ArchiveEmu.Benchmarks/capped.sh [--user NAME] [--cap MIB_PER_S] [--read-ahead-kb KB] -- BENCHMARK --dir DIR [its options]
# --cap 500 by default; --cap 0 counts the bytes read without capping them.
# Everything it changes (/dev/fuse's mode, the disk's read_ahead_kb, the cgroup) is put back when it ends.
set -eu

user="" cap=500 readahead=""
while [ $# -gt 0 ]; do
    case "$1" in
        --user) user="$2"; shift 2 ;;
        --cap) cap="$2"; shift 2 ;;
        --read-ahead-kb) readahead="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "capped.sh: unknown option $1 (see the comment at the top)" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "capped.sh: run as root (it sets a cgroup and the disk's read-ahead)" >&2; exit 2; }

dir=""
prev=""
for arg in "$@"; do
    [ "$prev" = "--dir" ] && dir="$arg"
    prev="$arg"
done
[ -n "$dir" ] || { echo "capped.sh: pass --dir DIR after --, a folder on the disk to measure" >&2; exit 2; }
mkdir -p "$dir"

# The block device holding the folder, as major:minor, and its queue (a partition's queue is its disk's).
source=$(findmnt -no SOURCE -T "$dir")
devnum=$(lsblk -ndo MAJ:MIN "$source" | tr -d ' ')
disk=$(lsblk -ndo PKNAME "$source")
[ -n "$disk" ] || disk=$(basename "$source")
queue="/sys/block/$disk/queue/read_ahead_kb"

cgroup=/sys/fs/cgroup/blkio/archiveemu-capped
fuse_mode=$(stat -c %a /dev/fuse)
old_readahead=$(cat "$queue")
restore() {
    chmod "$fuse_mode" /dev/fuse
    echo "$old_readahead" > "$queue"
    if [ -d "$cgroup" ]; then
        while read -r pid; do echo "$pid" > /sys/fs/cgroup/blkio/cgroup.procs 2>/dev/null || true; done < "$cgroup/cgroup.procs"
        rmdir "$cgroup"
    fi
}
trap restore EXIT INT TERM

if [ -d /sys/fs/cgroup/blkio ]; then
    mkdir -p "$cgroup"
    echo "$devnum $((cap * 1024 * 1024))" > "$cgroup/blkio.throttle.read_bps_device"
    echo "reads of $source ($devnum) capped at $cap MiB/s (cgroup v1 blkio; 0: not capped, only counted)"
elif [ -f /sys/fs/cgroup/cgroup.subtree_control ] && grep -qw io /sys/fs/cgroup/cgroup.controllers; then
    cgroup=/sys/fs/cgroup/archiveemu-capped
    echo +io > /sys/fs/cgroup/cgroup.subtree_control
    mkdir -p "$cgroup"
    echo "$devnum rbps=$((cap * 1024 * 1024))" > "$cgroup/io.max"
    echo "reads of $source ($devnum) capped at $cap MiB/s (cgroup v2 io.max)"
else
    echo "capped.sh: no blkio (v1) or io (v2) cgroup controller here: reads are not capped" >&2
    cgroup=""
fi
if [ -n "$readahead" ]; then
    echo "$readahead" > "$queue"
fi
echo "$disk read_ahead_kb $(cat "$queue")"

bench="$(cd "$(dirname "$0")" && pwd)/bin/Release/net10.0/ArchiveEmu.Benchmarks.dll"
dotnet=$(command -v dotnet)
if [ -n "$user" ]; then
    chmod 0666 /dev/fuse
    chown -R "$user" "$dir"
    uid=$(id -u "$user")
    gid=$(id -g "$user")
    run="setpriv --reuid=$uid --regid=$gid --init-groups env HOME=$(getent passwd "$user" | cut -d: -f6)"
else
    run=""
fi
# The shell joins the cgroup, and the benchmark and its hosts are its children.
[ -z "$cgroup" ] || echo $$ > "$cgroup/cgroup.procs"
# shellcheck disable=SC2086 # $run is a command line on purpose
$run "$dotnet" "$bench" "$@"
