#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds an OpenSSL release's libcrypto.so.3 from the cached source, for the
# benchmark to compare with (bench --openssl PATH).  Nothing is installed:
# the library lands in the cache beside the source tree.
#
#   sh tools/openssl-lib.sh [3.0|3.5]           build it once (make openssl-lib)
#                                               and print the library's path
#   sh tools/openssl-lib.sh --cached [3.0|3.5]  print the built library's path,
#                                               or say how to build it; never
#                                               builds
#
# The source comes from tools/openssl-source.sh --cached (fetched by make
# openssl-source); it is only read: the build is out of tree, in
# lib-X.Y.Z.build/ under the cache, and only libcrypto.so.3 is kept, in
# lib-X.Y.Z/, once the build has succeeded; an interrupted build goes on
# where it stopped.  A library already there is reused (a second run has
# nothing to do); a build already running (its lock, lib-X.Y.Z.lock)
# makes a second one stop.  Its configuration directory is
# its own (lib-X.Y.Z/ssl), so it never reads the system's openssl.cnf.
#
# OPENSSL_SOURCE_CACHE  where trees and libraries are kept
#                       (default ~/.cache/perlasm-x86)
# Exit 0 with the path on stdout; exit 2 with the reason on stderr.

set -u

cache=${OPENSSL_SOURCE_CACHE:-${HOME:-/tmp}/.cache/perlasm-x86}
here=$(dirname "$0")

fail() { echo "openssl-lib: $*" >&2; exit 2; }
usage() { echo "usage: $0 [--cached] [3.0|3.5]" >&2; exit 2; }

case "${1:-}" in --cached) build=0; shift ;; *) build=1 ;; esac
[ $# -le 1 ] || usage
case "${1:-3.5}" in 3.0 | 3.5) series=${1:-3.5} ;; *) usage ;; esac

tree=$(sh "$here/openssl-source.sh" --cached "$series" 2>/dev/null) ||
    fail "no OpenSSL $series source in $cache: run \`make openssl-source OPENSSL_VERSION=$series\`, then \`make openssl-lib OPENSSL_VERSION=$series\`"
version=$(sed -n 's/^\(MAJOR\|MINOR\|PATCH\)=\([0-9]*\)$/\2/p' "$tree/VERSION.dat" | paste -sd. -)
case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) fail "cannot read the version from $tree/VERSION.dat" ;;
esac
dest=$cache/lib-$version
lib=$dest/libcrypto.so.3

if [ -s "$lib" ]; then
    [ $build = 0 ] || echo "openssl-lib: $lib is already built; nothing to do" >&2
    echo "$lib"
    exit 0
fi
[ $build = 1 ] || fail "no OpenSSL $version library in $dest: run \`make openssl-lib OPENSSL_VERSION=$series\` to build it (minutes; nothing installed)"

command -v perl >/dev/null 2>&1 || fail "perl is needed to configure OpenSSL"
command -v make >/dev/null 2>&1 || fail "make is needed to build OpenSSL"
work=$dest.build
log=$work/build.log
# One build at a time: a second would remove the first one's tree.
if command -v flock >/dev/null 2>&1; then
    mkdir -p "$cache" || fail "cannot create $cache"
    exec 9>"$cache/lib-$version.lock" || fail "cannot write $cache/lib-$version.lock"
    flock -n 9 || fail "another build of OpenSSL $version's library is running (it holds $cache/lib-$version.lock)"
fi
# A build that was interrupted after Configure (its Makefile is there)
# goes on where it stopped; anything else starts afresh.
if [ -f "$work/Makefile" ] && [ -f "$work/configdata.pm" ]; then
    echo "openssl-lib: going on with the interrupted build of OpenSSL $version's libcrypto.so.3 in $work (log: $log)" >&2
else
    rm -rf "$work"
    mkdir -p "$work" || fail "cannot create $work"
    echo "openssl-lib: building OpenSSL $version's libcrypto.so.3 from $tree in $work (log: $log)" >&2
    # Shared, no tests; prefix and configuration directory inside the cache
    # so the library never looks at the system's configuration or modules.
    (cd "$work" && perl "$tree/Configure" linux-x86_64 shared no-tests \
        --prefix="$dest" --openssldir="$dest/ssl" --libdir=lib) >"$log" 2>&1 ||
        fail "Configure failed; see $log"
fi
# The generated headers, then the shared library alone (not the static
# one nor libssl, which would double the work).
(cd "$work" && nice make build_generated &&
    nice make -j"${OPENSSL_LIB_JOBS:-2}" libcrypto.so.3) >>"$log" 2>&1 ||
    fail "the build failed; see $log"
[ -s "$work/libcrypto.so.3" ] || fail "the build made no libcrypto.so.3; see $log"
mkdir -p "$dest" || fail "cannot create $dest"
cp "$work/libcrypto.so.3" "$lib.tmp" && mv "$lib.tmp" "$lib" || fail "cannot copy the library into $dest"
rm -rf "$work"
echo "openssl-lib: built $lib" >&2
echo "$lib"
