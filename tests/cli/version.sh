#!/bin/sh
# Every tool prints "TOOL (hilo) MAJOR.MINOR.PATCH" for --version, on stdout,
# exit 0, with the numbers of include/hilo/version.h.
# Usage: version.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
v=$(grep -E '^#define HILO_VERSION_(MAJOR|MINOR|PATCH) ' "$src/include/hilo/version.h" |
	awk '{printf "%s%s", sep, $3; sep="."}')
fail=0
for t in hilo-opt hilo-run pto-opt hilo-bench; do
	out=$("$build/$t" --version 2>/dev/null)
	rc=$?
	if [ $rc -ne 0 ] || [ "$out" != "$t (hilo) $v" ]; then
		echo "FAIL: $t --version gave '$out' (exit $rc), want '$t (hilo) $v'"
		fail=$((fail + 1))
	fi
done
echo "$((4 - fail)) passed, $fail failed"
[ $fail -eq 0 ]
