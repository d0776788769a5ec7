#!/bin/sh
# The test-only passes stay out of the product (issue 29): no library or
# tool given after TESTING_LIB defines a function of tests/lib (the
# test passes' entry points hilo_pass_test_*, their variants), read with
# nm; TESTING_LIB must define every one (so the check is not vacuous).
# Usage: apart.sh TESTS_LIB_DIR TESTING_LIB PRODUCT...
set -u
dir=$1 testing=$2; shift 2
T=${TMPDIR:-/tmp}/apart.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
# the entry points, from the rows of test_passes.def
sed -n 's/^TEST_PASS(\([a-z0-9_]*\),.*/hilo_pass_\1/p' "$dir/test_passes.def" | sort -u >"$T/want"
[ -s "$T/want" ] || { echo "FAIL: no TEST_PASS rows in $dir/test_passes.def"; exit 1; }
fail=0
nm -A "$testing" 2>/dev/null | awk '$(NF-1) ~ /^[TtDdRrBb]$/ {print $NF}' | sort -u >"$T/testing"
missing=$(comm -23 "$T/want" "$T/testing")
[ -z "$missing" ] || { echo "FAIL: the testing library lacks: $missing"; fail=1; }
for p in "$@"; do
	[ -f "$p" ] || { echo "FAIL: $p missing"; fail=1; continue; }
	nm -A "$p" >"$T/nm" 2>/dev/null || nm -D -A "$p" >"$T/nm"
	awk '$(NF-1) ~ /^[TtDdRrBb]$/ {print $NF}' "$T/nm" | sort -u >"$T/defs"
	bad=$(comm -12 "$T/want" "$T/defs")
	[ -z "$bad" ] || { echo "FAIL: $(basename "$p") contains test-only passes: $bad"; fail=1; }
	grep -q 'test-swap-operands' "$p" && { echo "FAIL: $(basename "$p") names test-swap-operands"; fail=1; }
done
[ $fail = 0 ] || exit 1
echo "$(wc -l <"$T/want") test-only passes: in the testing library, in none of $#"
