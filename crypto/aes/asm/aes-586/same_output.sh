#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Does aes-586.pl in this checkout write the same bytes as at revision REV?
# For a change that must not touch the generated code (a refactoring):
#
#   sh crypto/aes/asm/aes-586/same_output.sh [REV]      (default HEAD)
#
# Every flavour with every variant and the benchmark's option builds is
# generated from REV's tree (git archive into a temporary directory) and
# from the working tree, and each pair compared with cmp.  Exit 0 when all
# are identical; otherwise the differing ones are named, exit 1.
set -eu
rev=${1:-HEAD}
top=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old" "$tmp/out"
git -C "$top" archive "$rev" perlasm crypto/aes | tar -x -C "$tmp/old"

# Variants (aes586.mk) and the benchmark's one-option builds (x86mca.mk),
# each with the round loop and unrolled; -fPIC matters on ELF only, but
# costs nothing elsewhere.
options='
-
-fPIC
-fPIC 386
386
-DAES586_movzbl=0
-DAES586_mask24=1
-DAES586_ror_weight=1
-DAES586_ror_weight=3
-DAES586_imul=0
-DAES586_cbc_thresh=256
'
echo "$options" | while read -r opt; do
    [ -n "$opt" ] || continue
    [ "$opt" = - ] && opt=
    for flavour in elf macosx coff win32n; do
        for loop in 1 0; do
            echo "$flavour -DAES586_small_footprint=$loop${opt:+ $opt}"
        done
    done
done > "$tmp/cases"

# One case: FLAVOUR FLAGS...; prints it if the two outputs differ.  (No
# trailing blank on a case: xargs -L would join it to the next line.)
cat > "$tmp/one.sh" <<'EOF'
tmp=$1; top=$2; shift 2
name=$(echo "$*" | tr -c 'A-Za-z0-9=\n' _)
perl "$tmp/old/crypto/aes/asm/aes-586.pl" "$@" "$tmp/out/$name.old" || { echo "$name (old: failed)"; exit 0; }
perl "$top/crypto/aes/asm/aes-586.pl" "$@" "$tmp/out/$name.new" || { echo "$name (new: failed)"; exit 0; }
cmp -s "$tmp/out/$name.old" "$tmp/out/$name.new" || echo "$name"
EOF
xargs -P 2 -L 1 sh "$tmp/one.sh" "$tmp" "$top" < "$tmp/cases" > "$tmp/differ"

total=$(wc -l < "$tmp/cases")
if [ -s "$tmp/differ" ]; then
    echo "aes-586: $(wc -l < "$tmp/differ") of $total outputs differ from $rev:"
    sed 's/^/  /' "$tmp/differ"
    exit 1
fi
echo "aes-586: all $total outputs identical to $rev"
