#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes libcrypto-asm.pc from tools/libcrypto-asm.pc.in, for the
# repository's `make install` and the release tarball's alike.  libdir and
# includedir are written relative to ${prefix} when they lie under PREFIX,
# so pkg-config's --define-prefix can relocate the file.  OUT is written
# through a temporary, so a failure leaves none.
#
#   pc-file.sh TEMPLATE OUT PREFIX LIBDIR INCLUDEDIR VERSION
set -eu

[ $# -eq 6 ] || { echo "pc-file.sh: usage: pc-file.sh TEMPLATE OUT PREFIX LIBDIR INCLUDEDIR VERSION" >&2; exit 1; }
template=$1 out=$2 prefix=$3 libdir=$4 incdir=$5 version=$6

rel() {
    case $1 in
        "$prefix"/*) printf '%s' "\${prefix}${1#"$prefix"}" ;;
        *)           printf '%s' "$1" ;;
    esac
}
# A value as sed's replacement text.
esc() { printf '%s' "$1" | sed 's/[&|\\]/\\&/g'; }

trap 'rm -f "$out.tmp"' EXIT
sed -e "s|@PREFIX@|$(esc "$prefix")|" -e "s|@LIBDIR@|$(esc "$(rel "$libdir")")|" \
    -e "s|@INCDIR@|$(esc "$(rel "$incdir")")|" -e "s|@VERSION@|$(esc "$version")|" \
    "$template" >"$out.tmp"
mv "$out.tmp" "$out"
