#!/bin/sh
# The test-only unsound passes on the real dumps (issue 13 item 5): every
# planted bug that fires on a module of corpus/real must be caught by plain
# --check-equivalence: exit 4, the failure naming the planted pass.
#   real_dumps.sh BINDIR [CORPUS]      (CORPUS default: ../shared/corpus/real)
# Exits 77 (skipped, never passed) when the corpus is absent.
#
# Where they fire (each test pass run on every dump, alone and in place of
# its seed pass in --pipeline=neuron and in the unrolled llama flow):
# test-dus-concat-gap-filled on gemma4; test-ds-mover-start-off-by-one
# after the unroller and the index simplifier on llama31_70b and deepseek;
# test-unroll-wrong-induction on llama31_70b, deepseek and torax;
# test-swap-operands everywhere (tests/check/corpus_proof.sh). The others
# find nothing to rewrite on these dumps. Not here: the wrong induction on
# torax (the difference does not reach the tested outputs on random inputs,
# which turn the solver's state into NaN on both sides: tested, not failed;
# docs/proof.md "What is not proved").
#
# The wrong moves and iterations on the 70B model are in cones far over the
# evaluation budget (a 134M-element layer slab): they are caught at the cut
# where the terms differ (src/check/cut.c), which is what this test checks.
BIN=$1
REAL=${2:-$(dirname "$0")/../../../shared/corpus/real}
[ -d "$REAL" ] || { echo "corpus $REAL absent: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 ran=0
case_() { # passes dump [method]
	passes=$1; dump=$REAL/$2.hlo; method=$3
	[ -f "$dump" ] || { echo "SKIP $2 (absent)"; return; }
	ran=$((ran + 1))
	"$BIN/hilo-opt" "$dump" --passes="$passes" --check-equivalence -o "$T/out.hlo" 2>"$T/err"
	rc=$?
	last=${passes##*,}
	if [ $rc != 4 ]; then
		echo "FAIL $last on $2: exit $rc, want 4"; head -c 2000 "$T/err"; fail=1
	elif ! grep -q "pass '$last' changed the program's result" "$T/err"; then
		echo "FAIL $last on $2: the failure does not name the pass"; head -c 2000 "$T/err"; fail=1
	elif [ -n "$method" ] && ! grep -q "method $method" "$T/err"; then
		echo "FAIL $last on $2: not caught by method $method"; head -c 2000 "$T/err"; fail=1
	else
		echo "ok   $last on $2"
	fi
	grep '^equivalence:' "$T/err"
}
pre=while-loop-unroller,neuron-dus-ds-index-simplifier
case_ test-dus-concat-gap-filled gemma4_2b_bf16
case_ $pre,test-ds-mover-start-off-by-one hlo_llama31_70b_fp8_32x8 cut
case_ $pre,test-ds-mover-start-off-by-one nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization
case_ test-unroll-wrong-induction hlo_llama31_70b_fp8_32x8 cut
case_ test-unroll-wrong-induction nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization
[ $ran -gt 0 ] || { echo "no corpus modules: skipped"; exit 77; }
exit $fail
