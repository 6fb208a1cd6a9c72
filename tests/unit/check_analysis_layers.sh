#!/usr/bin/env bash
# tests/unit/check_analysis_layers.sh - analysis/ has no include circle and
# includes only downward: model/ < report/ < studies/ < commands/ (bench/
# stands alone).  A file's unit is its path without .c/.h, so X.c and X.h
# are one; every library .c includes its own header first (or, when it has
# none, its part's header, whose unit it then belongs to), so a file calling
# into another shows as an include.  tsort finds the circles.  Run by `make check-unit`, it ends
# with a cmocka-style summary line for tests/run-unit.sh.
set -u
cd "$(dirname "$0")/../.." || exit 1
problems=0
fail() { echo "check_analysis_layers: $*"; problems=$((problems + 1)); }

layer() {
	case $1 in
	analysis/model/*) echo 0 ;; analysis/report/*) echo 1 ;;
	analysis/studies/*) echo 2 ;; analysis/commands/*) echo 3 ;; *) echo 9 ;;
	esac
}

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $(find analysis -name '*.[ch]' | sort); do
	dir=${f%/*} unit=${f%.[ch]}
	incs=$(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	first=${incs%%$'\n'*}
	case $first in */*) ;; ?*) first=$dir/$first ;; esac
	# A .c without a header of its own belongs to its part's header's unit.
	case $f in *.c) [ -e "$unit.h" ] || [ "${first%/*}" != "$dir" ] || unit=${first%.h} ;; esac
	for inc in $incs; do
		case $inc in */*) path=$inc ;; *) path=$dir/$inc ;; esac
		case $path in analysis/*) ;; *) continue ;; esac
		[ -e "$path" ] || { fail "$f includes $inc, which is not there"; continue; }
		[ "$(layer "$path")" -le "$(layer "$f")" ] || fail "$f includes $inc from a layer above"
		echo "${path%.h} $unit" >> "$edges"
	done
	case $f in analysis/model/*.c | analysis/report/*.c | analysis/studies/*.c)
		if [ -e "${f%.c}.h" ]; then
			[ "$first" = "${f%.c}.h" ] || fail "$f does not include its own header first"
		else
			[ "${first%/*}" = "$dir" ] || fail "$f includes no header of its own folder first"
		fi ;;
	esac
done
if ! loop=$(tsort <"$edges" 2>&1 >/dev/null) || [ -n "$loop" ]; then
	fail "include circle among: $(printf '%s\n' "$loop" | sed -n 's/^tsort: \([^ -][^ ]*\)$/\1/p' | sort -u |
		tr '\n' ' ')"
fi
if [ "$problems" -eq 0 ]; then
	echo "[  PASSED  ] 1 test(s)."
else
	echo "[  FAILED  ] 1 test(s)."
	exit 1
fi
