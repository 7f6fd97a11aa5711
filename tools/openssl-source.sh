#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# An unpacked OpenSSL source tree kept in a cache, for the parts of the
# tests and benchmarks that compare with OpenSSL's own perlasm.
#
#   sh tools/openssl-source.sh [3.0|3.5]           fetch it once (make
#                                                  openssl-source) and print
#                                                  the tree's path
#   sh tools/openssl-source.sh --cached [3.0|3.5]  print the cached tree's
#                                                  path, or say how to get
#                                                  it; never fetches
#
# 3.0 (the default) comes from this machine's Debian (or Ubuntu) release,
# 3.5 from Debian trixie; each is cached as openssl-3.0.N / openssl-3.5.N.
#
# OPENSSL_SOURCE_CACHE  where trees are kept (default ~/.cache/perlasm-x86)
#
# Fetching is `apt-get source` run as any user against a private apt state
# under the cache, one per suite (apt/, apt-trixie/): one deb-src line,
# its own package lists, refreshed on every fetch, and caches, and none of
# the system's apt.conf.d (so no update hooks run).  The system's apt
# configuration is only read, never written.  The tree is the upstream tarball (Debian's
# orig.tar.gz), unpatched, as OpenSSL releases it; trees are read-only
# inputs that whoever builds in one copies first.
# Exit 0 with the path on stdout; exit 2 with the reason on stderr when no
# tree can be had, which tests report as a SKIP.

set -u

cache=${OPENSSL_SOURCE_CACHE:-${HOME:-/tmp}/.cache/perlasm-x86}

fail() {
    echo "openssl-source: $*" >&2
    exit 2
}

usage() {
    echo "usage: $0 [--cached] [3.0|3.5]" >&2
    exit 2
}
fetch=1
if [ "${1:-}" = --cached ]; then
    fetch=0
    shift
fi
series=${1:-3.0}
case "$series" in
    3.0 | 3.5) ;;
    *) usage ;;
esac
[ $# -le 1 ] || usage
sre=$(echo "$series" | sed 's/\./\\./')

# A tree already unpacked: the newest $series.x in the cache.
cached_tree() {
    for d in $(ls "$cache" 2>/dev/null | grep "^openssl-$sre\.[0-9][0-9]*\$" | sort -V -r); do
        if [ -f "$cache/$d/VERSION.dat" ] && [ -f "$cache/$d/.unpacked" ]; then
            echo "$cache/$d"
            return 0
        fi
    done
    return 1
}

if tree=$(cached_tree); then
    echo "$tree"
    exit 0
fi
case $series in
    3.0) how="make openssl-source" ;;
    *) how="make openssl-source OPENSSL_VERSION=$series" ;;
esac
manual="unpack an OpenSSL $series.x tarball into $cache/openssl-$series.N and touch .unpacked there"
[ $fetch = 1 ] || fail "no OpenSSL $series source in $cache: run \`$how\` to fetch it (any user, nothing installed)"

command -v apt-get >/dev/null 2>&1 || fail "no apt-get on this machine: $manual"

if [ "$series" = 3.5 ]; then
    # Debian trixie carries 3.5, from Debian's own archive.
    suite=trixie
    mirror=http://deb.debian.org/debian
    apt=$cache/apt-$suite
else
    # The release's codename, then the first archive URI this machine's own deb
    # lines use for that suite (one-line and deb822 files), so the same mirror
    # serves the source; Debian's own archive when none names it.
    suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    [ -n "$suite" ] || fail "cannot tell this machine's release (no VERSION_CODENAME in /etc/os-release)"
    mirror=$(
        {
            [ -f /etc/apt/sources.list ] && cat /etc/apt/sources.list
            for f in /etc/apt/sources.list.d/*.list; do [ -f "$f" ] && cat "$f"; done
        } | awk -v s="$suite" '
            { sub(/\[[^]]*\]/, "") }
            $1 == "deb" && $3 == s { print $2; exit }'
    )
    if [ -z "$mirror" ]; then
        mirror=$(for f in /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && { cat "$f"; echo; }; done |
            awk -v s="$suite" '
                function flush() { if (deb && uri != "" && hit) { print uri; found = 1; exit } deb = 0; uri = ""; hit = 0 }
                /^[[:space:]]*$/ { flush(); next }
                tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
                tolower($1) == "uris:" { uri = $2 }
                tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == s) hit = 1 }
                END { if (!found) flush() }')
    fi
    if [ -z "$mirror" ]; then
        case $(. /etc/os-release 2>/dev/null && echo "${ID:-}") in
            debian) mirror=http://deb.debian.org/debian ;;
            *) fail "no apt source for suite $suite on this machine: $manual" ;;
        esac
    fi
    apt=$cache/apt
fi
mkdir -p "$apt/lists/partial" "$apt/cache" "$apt/conf.d" "$cache/download" || fail "cannot create $cache"
echo "deb-src $mirror $suite main" >"$apt/sources.list" || fail "cannot write $apt/sources.list"
# The system's apt.conf.d is not read (its hooks would run on update); its
# proxy, if it sets one, is carried over.
{
    echo "Dir::Etc::Parts \"$apt/conf.d\";"
    echo "Dir::Etc::Main \"/dev/null\";"
    for k in Acquire::http::Proxy Acquire::https::Proxy; do
        v=$(apt-config dump "$k" 2>/dev/null | sed -n "s/^$k \"\(.*\)\";\$/\1/p")
        [ -z "$v" ] || echo "$k \"$v\";"
    done
} >"$apt/apt.conf" || fail "cannot write $apt/apt.conf"
export APT_CONFIG="$apt/apt.conf"
set -- -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
log=$apt/log

echo "openssl-source: fetching OpenSSL $series's source ($mirror $suite) into $cache" >&2
apt-get "$@" update >"$log" 2>&1 || fail "apt-get update failed for deb-src $mirror $suite main (no network?); see $log"

cd "$cache/download" || fail "cannot enter $cache/download"
# Every $series version the archive lists, newest first.
versions=$(apt-cache "$@" showsrc openssl 2>/dev/null | awk -v p="^$series\\." '$1 == "Version:" && $2 ~ p {print $2}' | sort -V -r -u)
[ -n "$versions" ] || fail "$mirror $suite has no openssl $series source package"
for v in $versions; do
    upstream=${v%%-*}
    orig=openssl_$upstream.orig.tar.gz
    if [ ! -s "$orig" ]; then
        apt-get "$@" source --download-only "openssl=$v" >>"$log" 2>&1
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
fail "no openssl $series source could be downloaded (tried: $(echo $versions)); see $log"
