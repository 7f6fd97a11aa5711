#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what the tests need, as listed in tools/test-deps.txt.
#
#   sh tools/install-test-deps.sh [-n]
#
# Checks every line of the list.  Nothing missing: one line, exit 0.
# Something missing and running as root: apt-get update (once) and
# apt-get install of the missing packages; exit non-zero if that fails or
# a check still fails afterwards.  Not root, or -n: prints what is missing
# and which tests will be skipped, exit 0.
# TEST_DEPS_FILE overrides the list's path.

set -u

dry=0
case "${1:-}" in
    -n) dry=1 ;;
    "") ;;
    *) echo "usage: $0 [-n]" >&2; exit 2 ;;
esac

here=$(dirname "$0")
list=${TEST_DEPS_FILE:-$here/test-deps.txt}
if [ ! -r "$list" ]; then
    echo "install-test-deps: cannot read $list" >&2
    exit 2
fi

# check_one CHECK: status 0 if satisfied, 1 if not, 2 if malformed.
check_one() {
    case "$1" in
        cmd:?*) command -v "${1#cmd:}" >/dev/null 2>&1 || return 1 ;;
        file:?*) [ -e "${1#file:}" ] || return 1 ;;
        *) return 2 ;;
    esac
}

# scan: sets total, missing_pkgs (space separated, unique) and
# missing_text (one "  check (package): what" line each).
scan() {
    total=0
    missing_pkgs=
    missing_text=
    lineno=0
    bad=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        case "$line" in
            ''|'#'*) continue ;;
        esac
        # Word-split the line (no globbing) into check, package, rest.
        set -f
        # shellcheck disable=SC2086
        set -- $line
        set +f
        [ $# -eq 0 ] && continue
        if [ $# -lt 3 ]; then
            echo "install-test-deps: $list:$lineno: want '<check> <package> <what needs it>': $line" >&2
            bad=1
            continue
        fi
        check=$1 pkg=$2
        shift 2
        what=$*
        total=$((total + 1))
        check_one "$check"
        case $? in
            0) ;;
            1)
                case " $missing_pkgs " in
                    *" $pkg "*) ;;
                    *) missing_pkgs="${missing_pkgs:+$missing_pkgs }$pkg" ;;
                esac
                missing_text="$missing_text  $check ($pkg): $what
"
                ;;
            *)
                echo "install-test-deps: $list:$lineno: unknown check '$check' (want cmd:NAME or file:PATH)" >&2
                bad=1
                ;;
        esac
    done < "$list"
    [ "$bad" -eq 0 ] || exit 2
}

scan

if [ -z "$missing_pkgs" ]; then
    echo "test deps: all $total present"
    exit 0
fi

if [ "$dry" -eq 1 ] || [ "$(id -u)" -ne 0 ]; then
    echo "test deps missing (not installing: $([ "$dry" -eq 1 ] && echo '-n given' || echo 'not root')):"
    printf '%s' "$missing_text"
    echo "these tests will be skipped; to install: apt-get install $missing_pkgs"
    exit 0
fi

echo "test deps missing:"
printf '%s' "$missing_text"
echo "installing: $missing_pkgs"
if ! apt-get update; then
    echo "install-test-deps: apt-get update failed" >&2
    exit 1
fi
# shellcheck disable=SC2086
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing_pkgs; then
    echo "install-test-deps: apt-get install $missing_pkgs failed" >&2
    exit 1
fi

scan
if [ -n "$missing_pkgs" ]; then
    echo "install-test-deps: still missing after installing:" >&2
    printf '%s' "$missing_text" >&2
    exit 1
fi
echo "test deps: all $total present (installed)"
