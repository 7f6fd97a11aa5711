#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Prints the path of an unpacked OpenSSL 3.0.x source tree, fetching it
# once through the machine's Debian archive (apt-get source) into a cache.
#
#   sh tools/openssl-source.sh            print the tree's path (fetch if needed)
#
# OPENSSL_SOURCE_CACHE  where trees are kept (default ~/.cache/perlasm-x86)
#
# The tree is the upstream tarball (Debian's orig.tar.gz), unpatched, so it
# builds and tests as OpenSSL releases it.  Trees are read-only inputs:
# whoever builds in one copies it first.  Exit 0 with the path on stdout;
# exit 2 with the reason on stderr when no tree can be had (no apt-get, no
# deb-src line and not root, no network), which tests report as a SKIP.

set -u

cache=${OPENSSL_SOURCE_CACHE:-${HOME:-/tmp}/.cache/perlasm-x86}

fail() {
    echo "openssl-source: $*" >&2
    exit 2
}

# A tree already unpacked: the newest 3.0.x in the cache.
cached_tree() {
    for d in $(ls -d "$cache"/openssl-3.0.* 2>/dev/null | sort -t. -k3 -n -r); do
        if [ -f "$d/VERSION.dat" ] && [ -f "$d/.unpacked" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

if tree=$(cached_tree); then
    echo "$tree"
    exit 0
fi

command -v apt-get >/dev/null 2>&1 || fail "no apt-get on this machine: unpack an OpenSSL 3.0.x tarball into $cache/openssl-3.0.N and touch .unpacked there"

# deb-src lines: derived from the machine's own deb lines, so the same
# mirror and suites are used.  Only root can add them.
src_list=/etc/apt/sources.list.d/perlasm-x86-deb-src.sources
if ! apt-cache showsrc openssl 2>/dev/null | grep -q '^Version: 3\.0\.'; then
    [ "$(id -u)" = 0 ] || fail "apt has no deb-src line for openssl and this is not root (add a deb-src line, or run as root)"
    tmp=$src_list.tmp
    : >"$tmp"
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        [ "$f" = "$src_list" ] && continue
        grep -q 'deb.debian.org\|debian' "$f" || continue
        sed 's/^Types:[[:space:]]*deb$/Types: deb-src/' "$f" >>"$tmp"
        echo >>"$tmp"
    done
    if [ -f /etc/apt/sources.list ]; then
        sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' /etc/apt/sources.list >"$tmp.list"
        [ -s "$tmp.list" ] && mv "$tmp.list" /etc/apt/sources.list.d/perlasm-x86-deb-src.list
        rm -f "$tmp.list"
    fi
    mv "$tmp" "$src_list"
    apt-get update -qq >/dev/null 2>&1 || fail "apt-get update failed (no network?)"
    apt-cache showsrc openssl 2>/dev/null | grep -q '^Version: 3\.0\.' \
        || fail "the Debian archive has no openssl 3.0 source package"
fi

mkdir -p "$cache/download" || fail "cannot create $cache"
cd "$cache/download" || fail "cannot enter $cache/download"

# Every 3.0 version the archive lists, newest first: a security mirror may
# list a version whose files it no longer holds.
versions=$(apt-cache showsrc openssl 2>/dev/null | awk '/^Version: 3\.0\./ {print $2}' | sort -V -r -u)
for v in $versions; do
    upstream=${v%%-*}
    orig=openssl_$upstream.orig.tar.gz
    if [ ! -s "$orig" ]; then
        apt-get source --download-only "openssl=$v" >/dev/null 2>&1
        [ -s "$orig" ] || continue
    fi
    dest=$cache/openssl-$upstream
    rm -rf "$dest" "$dest.tmp"
    mkdir -p "$dest.tmp"
    if tar -xzf "$orig" -C "$dest.tmp" --strip-components=1 && [ -f "$dest.tmp/VERSION.dat" ]; then
        touch "$dest.tmp/.unpacked"
        mv "$dest.tmp" "$dest"
        echo "$dest"
        exit 0
    fi
    rm -rf "$dest.tmp"
done
fail "no openssl 3.0 source could be downloaded (tried: $(echo $versions))"
