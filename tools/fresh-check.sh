#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's set-up on a machine that has nothing but build-essential
# (and git, which cloned the tree):
# builds a minimal Debian root with mmdebstrap (its packages come from this
# machine's own apt configuration), copies the tree in, and runs there the
# two commands a newcomer runs: `make -j2`, then `make test` (which
# installs the test tools inside the root, as it would on their machine).
# README's optional `make openssl-source` is left out, so the tests that
# need OpenSSL's source show they SKIP cleanly without it (CI runs them,
# with the source, on its own machine).
#
#   sh tools/fresh-check.sh [-k]      (make fresh-check)
#
#   -k            keep the root afterwards (default: removed on success)
#   FRESH_ROOT    where the root is built (default: build/fresh-root)
#   FRESH_SUITE   Debian suite (default: this machine's, from os-release)
#   FRESH_JOBS    make -j inside the root (default: 2)
#
# Needs root (mmdebstrap, mount, chroot); installs mmdebstrap (Debian package
# mmdebstrap) with apt-get when it is missing.  Exits non-zero if either command fails inside the root.
set -eu

keep=0
case "${1:-}" in
    -k) keep=1 ;;
    "") ;;
    *) echo "usage: $0 [-k]" >&2; exit 2 ;;
esac

me=fresh-check
here=$(cd "$(dirname "$0")/.." && pwd)
root=${FRESH_ROOT:-$here/build/fresh-root}
case $root in /*) ;; *) root=$PWD/$root ;; esac
jobs=${FRESH_JOBS:-2}
suite=${FRESH_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME:-}")}

die() { echo "$me: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, mount and chroot)"
# The one tool this check needs beyond the test tools: installed here, as
# root, so a new machine needs no step by hand.
if ! command -v mmdebstrap >/dev/null 2>&1; then
    echo "fresh-check: installing mmdebstrap (apt-get)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap; } >/dev/null 2>&1 \
        || die "mmdebstrap not installed and apt-get install mmdebstrap failed"
    command -v mmdebstrap >/dev/null 2>&1 || die "mmdebstrap not installed (apt-get install mmdebstrap)"
fi
[ -n "$suite" ] || die "cannot tell this machine's Debian suite; set FRESH_SUITE"
case "$root" in /|"") die "refusing FRESH_ROOT=$root" ;; esac

mounted=
cleanup() {
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    mounted=
}

trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# A run killed before its cleanup leaves mounts behind: undo them, and never
# let rm cross into another file system (the bound /dev above all).
unmount_stale() {
    awk -v r="$root/" 'index($2 "/", r) == 1 { print $2 }' /proc/mounts | sort -r |
        while read -r m; do umount -l "$m"; done
}
remove_root() { unmount_stale; rm -rf --one-file-system "$root"; }

t0=$(date +%s)
remove_root
echo "$me: minimal $suite root with build-essential and git in $root"
mmdebstrap --quiet --variant=minbase --include=build-essential,git "$suite" "$root"
t1=$(date +%s)

# A clone of the committed tree, as a newcomer has it (some tests read git
# ls-files), with nothing beside it: the test vectors are in the tree.
src=$root/src/perlasm-x86
mkdir -p "$root/src"
git clone --quiet --no-hardlinks "$here" "$src"
cp /etc/resolv.conf "$root/etc/resolv.conf"

for m in proc sys dev dev/pts; do
    mkdir -p "$root/$m"
    case $m in
        proc) mount -t proc proc "$root/proc" ;;
        sys) mount -t sysfs sys "$root/sys" ;;
        dev) mount --bind /dev "$root/dev" ;;
        dev/pts) mount -t devpts devpts "$root/dev/pts" ;;
    esac
    mounted="$root/$m $mounted"
done

in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "cd /src/perlasm-x86 && $1"
}

status=0
echo "$me: make -j$jobs (build-essential only)"
in_root "make -j$jobs" > "$root/make.log" 2>&1 || status=$?
t2=$(date +%s)
grep '^skipped:' "$root/make.log" | sed "s/^/$me:   /" || true
if [ $status -ne 0 ]; then
    tail -n 40 "$root/make.log" >&2
    echo "$me: FAIL: make exited $status in the fresh root (log: $root/make.log)" >&2
    exit 1
fi
[ -f "$src/build/libcrypto-asm.a" ] || { echo "$me: FAIL: make left no build/libcrypto-asm.a" >&2; exit 1; }

echo "$me: make test (installs the test tools in the root)"
in_root "make test" > "$root/test.log" 2>&1 || status=$?
t3=$(date +%s)
sed -n '/^Files=/,$p' "$root/test.log" | sed "s/^/$me:   /"
if [ $status -ne 0 ]; then
    grep -E '^(not ok|t/|test/t/.*(Wstat|Failed))' "$root/test.log" | head -n 40 >&2 || true
    echo "$me: FAIL: make test exited $status in the fresh root (log: $root/test.log)" >&2
    exit 1
fi

echo "$me: PASS in $((t3 - t0)) s: root $((t1 - t0)) s, make $((t2 - t1)) s, make test $((t3 - t2)) s"
cleanup
if [ $keep = 0 ]; then remove_root; fi
