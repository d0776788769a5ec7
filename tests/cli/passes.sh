#!/bin/sh
# Passes by XLA's names: constant_folding and while_loop_unroller (XLA's
# name() of HloConstantFolding and WhileLoopUnroller) run the same pass as
# constant-folding and while-loop-unroller, --list-passes shows the alias,
# XLA's dce, cse, call-inliner and tuple-simplifier are our names too, and
# no pass description cites a ticket, a seed number or the spec.
# Usage: passes.sh BUILD_DIR SOURCE_DIR
set -u
opt=$1/hilo-opt
opt_test=$1/hilo-opt-test # with the test-only passes (tests/lib)
src=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

"$opt" --list-passes >"$T/list" || bad "--list-passes failed"
for pair in constant-folding:constant_folding while-loop-unroller:while_loop_unroller; do
	name=${pair%%:*} alias=${pair##*:}
	grep -q "^$name  *.* (alias: $alias)\$" "$T/list" && ok || bad "--list-passes does not show $alias for $name"
done
# the first column stays the canonical name (examples/demo.sh reads it)
awk '{print $1}' "$T/list" | grep -qx constant_folding && bad "alias listed as a pass of its own" || ok

same() { # FILE CANONICAL ALIAS
	"$opt" "$1" --passes="$2" --check-equivalence >"$T/a" 2>"$T/ea"; ra=$?
	"$opt" "$1" --passes="$3" --check-equivalence >"$T/b" 2>"$T/eb"; rb=$?
	if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$T/a" "$T/b" && cmp -s "$T/ea" "$T/eb"; then ok
	else bad "--passes=$3 ($rb) differs from --passes=$2 ($ra)"; cat "$T/eb"; fi
	# and the pass really rewrote something (else the comparison proves nothing)
	cmp -s "$1" "$T/a" && bad "$2 left $1 unchanged" || ok
}
same "$src/tests/lit/constant-folding/basic.hlo" constant-folding constant_folding
same "$src/tests/lit/while-loop-unroller/basic_lt.hlo" while-loop-unroller while_loop_unroller
"$opt" "$src/tests/lit/constant-folding/basic.hlo" --passes=dce,cse,call-inliner,tuple-simplifier,constant_folding \
	>/dev/null 2>"$T/e" && ok || { bad "XLA's pass names rejected"; cat "$T/e"; }
# an alias is no wildcard: a near miss is still unknown
"$opt" "$src/tests/lit/constant-folding/basic.hlo" --passes=constant_fold >/dev/null 2>"$T/e"
[ $? -eq 2 ] && [ "$(head -n 1 "$T/e")" = "hilo-opt: error: unknown pass 'constant_fold' (did you mean 'constant_folding'?)" ] && ok ||
	{ bad "--passes=constant_fold not refused"; cat "$T/e"; }

"$opt_test" --list-passes --all >"$T/all"
grep -q "^test-swap-operands  *(test only) " "$T/all" && ok || bad "hilo-opt-test --list-passes --all lacks the test-only passes"
# the product's hilo-opt has none: they live in tests/lib, test binaries only
"$opt" --list-passes --all >"$T/product"
if grep -q "(test only)" "$T/product"; then bad "hilo-opt lists test-only passes"; else ok; fi
"$opt" "$src/tests/lit/constant-folding/basic.hlo" --passes=test-swap-operands >"$T/o" 2>"$T/e"
[ $? -eq 2 ] && grep -q "unknown pass 'test-swap-operands'" "$T/e" && ok || bad "hilo-opt runs a test-only pass"
if grep -nE '#[0-9]|seed [0-9]|SPEC|section [0-9]' "$T/all"; then bad "descriptions cite tickets or the spec"; else ok; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
