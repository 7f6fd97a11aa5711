#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make check` in a release tarball, without perl: checks the vector files
# against the SHA256SUMS beside them where VECTORS has one (the shipped
# directory does; a changed or missing file fails the check before any
# run), then runs each known-answer program once per implementation it
# lists (PROG --list), under that entry's OPENSSL_ia32cap mask with
# --expect-dispatch when it has one, else with OPENSSL_ia32cap unset.  A
# run passes when it exits 0, prints a TAP plan and no "not ok"; one the
# CPU cannot run skips itself.
#
#   VECTORS=DIR [EXEC="qemu-i386"] sh run-kat.sh PROGRAM...
#
# One PASS / SKIP / FAIL line per run (a failure's first 20 lines of output
# follow it), then a total; exits 1 if anything failed or nothing passed.
set -u
tab=$(printf '\t')
passed=0 skipped=0 failed=0

fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    # the first lines of the program's output say what went wrong
    [ -z "${2-}" ] || printf '%s\n' "$2" | sed -n '1,20s/^/    /p'
}

# run_one PROGRAM NAME MASK: one implementation's run.
run_one() {
    what="$(basename "$1") --impl $2"
    if [ -n "$3" ]; then
        what="$what (OPENSSL_ia32cap=$3)"
        out=$(OPENSSL_ia32cap=$3 $EXEC "$1" --impl "$2" --expect-dispatch </dev/null 2>&1)
    else
        out=$(unset OPENSSL_ia32cap; $EXEC "$1" --impl "$2" </dev/null 2>&1)
    fi
    rc=$?
    out=$(printf '%s\n' "$out" | tr -d '\r')
    skip=$(printf '%s\n' "$out" | sed -n 's/^1\.\.0 *# *[Ss][Kk][Ii][Pp] *//p')
    tests=$(printf '%s\n' "$out" | grep -c '^ok')
    if [ $rc -ne 0 ]; then
        fail "$what: exit status $rc" "$out"
    elif [ -n "$skip" ]; then
        skipped=$((skipped + 1))
        echo "SKIP $what: $skip"
    elif ! printf '%s\n' "$out" | grep -q '^1\.\.[0-9]'; then
        fail "$what: no TAP plan" "$out"
    elif printf '%s\n' "$out" | grep -q '^not ok'; then
        fail "$what: $(printf '%s\n' "$out" | grep -c '^not ok') failed" "$out"
    else
        passed=$((passed + 1))
        echo "PASS $what: $tests tests"
    fi
}

if [ -f "$VECTORS/SHA256SUMS" ]; then
    if command -v sha256sum >/dev/null 2>&1; then sum=sha256sum; else sum='shasum -a 256'; fi
    if out=$(cd "$VECTORS" && $sum -c SHA256SUMS 2>&1); then
        echo "PASS $VECTORS/SHA256SUMS: every vector file it lists matches"
    else
        fail "$VECTORS/SHA256SUMS: vector files differ or are missing" \
            "$(printf '%s\n' "$out" | grep -v ': OK$')"
        echo "kat: 0 passed, 0 skipped, $failed failed"
        exit 1
    fi
fi

for prog in "$@"; do
    # (stdout only: an emulator's messages on stderr are not entries)
    list=$($EXEC "$prog" --list </dev/null)
    rc=$?
    list=$(printf '%s\n' "$list" | tr -d '\r')
    if [ $rc -ne 0 ]; then
        fail "$(basename "$prog") --list: exit status $rc" "$list"
        continue
    elif [ -z "$list" ]; then
        fail "$(basename "$prog") --list names no implementation"
        continue
    fi
    # NAME<TAB>MASK<TAB>NEED, MASK possibly empty (so not split by IFS,
    # which would merge the two tabs); a here-document keeps the loop in
    # this shell, so the counts survive it.
    while IFS= read -r line; do
        case $line in *"$tab"*) rest=${line#*"$tab"} ;; *) rest= ;; esac
        run_one "$prog" "${line%%"$tab"*}" "${rest%%"$tab"*}"
    done <<EOF
$list
EOF
done

echo "kat: $passed passed, $skipped skipped, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
