#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes OUTDIR/perlasm-x86-VERSION.tar.gz holding each SRC as
# perlasm-x86-VERSION/DEST and a file VERSION holding VERSION, the same
# bytes on every run: entries sorted by
# name, one mtime for all, owner and group 0 (numeric), modes 644 and 755,
# gzip without a name or a time.  The files are staged in OUTDIR/dist/stage
# and the tarball written to a temporary that is renamed, so a failure
# leaves no tarball.
#
#   make-dist.sh OUTDIR VERSION DEST=SRC...
#
# The mtime: SOURCE_DATE_EPOCH, else the last commit's time, else
# 2000-01-01.
# TAR names GNU tar (default tar).
set -eu

said=
die() { echo "make dist: $*" >&2; said=1; exit 1; }

out=$1 version=$2
shift 2
case $version in
    '') die "no version: the VERSION file is empty; give VERSION=..." ;;
    *[!A-Za-z0-9._+-]*) die "VERSION \"$version\" may hold only letters, digits and . _ + -" ;;
esac
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || :)}
epoch=${epoch:-946684800}
case $epoch in
    *[!0-9]*) die "SOURCE_DATE_EPOCH \"$epoch\" is not a number of seconds" ;;
esac

name=perlasm-x86-$version
tarball=$out/$name.tar.gz
stage=$out/dist/stage
rm -rf "$stage" "$tarball" "$tarball.tmp"
# Whatever stops the script, nothing half-made is left, and a failure of a
# command here (which printed its own error) is still named as make dist's.
cleanup() {
    st=$?
    rm -rf "$stage" "$tarball.tmp"
    [ $st -eq 0 ] || [ -n "$said" ] || echo "make dist: failed; no tarball written" >&2
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

for pair; do
    dest=$stage/$name/${pair%%=*}
    mkdir -p "$(dirname "$dest")"
    cp "${pair#*=}" "$dest"
    chmod 644 "$dest"
done
echo "$version" >"$stage/$name/VERSION"
chmod 644 "$stage/$name/VERSION"

# Directories get 755 whatever the umask (X: only where x is already set).
${TAR:-tar} -C "$stage" -cf "$stage/$name.tar" --format=ustar --sort=name \
    --mtime="@$epoch" --owner=0 --group=0 --numeric-owner --mode=u=rwX,go=rX \
    "$name"
gzip -9n <"$stage/$name.tar" >"$tarball.tmp"
mv "$tarball.tmp" "$tarball"
echo "wrote $tarball"
