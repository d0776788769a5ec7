#!/bin/sh
# The planted-bug matrix on the real dumps (issue 13 item 5): every test-only
# unsound pass (listed by --list-passes --all as "(test only)") x every
# module of corpus/real. Where the planted bug fires, plain
# --check-equivalence must catch it: exit 4, the failure naming the pass.
#   real_dumps.sh BINDIR [CORPUS]      (CORPUS default: ../shared/corpus/real)
# Exits 77 (skipped, never passed) when the corpus is absent.
#
# Where a planted pass runs: in place of the seed pass it corrupts, in the
# fullest flow, FLOW = the while-loop unroller followed by --pipeline=neuron
# (so the dynamic-slice mover and the concat passes see the unrolled
# bodies and the index simplifier's proofs, as in the unrolled llama flow).
# test-swap-operands corrupts no seed pass: it runs alone. "Fires" means
# the module it writes differs from the one the seed pass writes in the
# same flow (from the input, for test-swap-operands): a planted pass whose
# bug finds nothing to act on rewrites exactly as its seed does (the
# all-gather remover ignoring dimensions on mixtral merges only gathers
# whose dimensions agree), and its rewrites are then sound.
#
# Where they fire today (each must fire, or the matrix lost a case):
# test-dus-concat-gap-filled on gemma4; test-ds-mover-start-off-by-one on
# llama31_70b and deepseek; test-unroll-wrong-induction on llama31_70b,
# deepseek and torax (a branch only an infinite input takes: boundary
# values, docs/proof.md "Testing fallback"); test-swap-operands on every
# dump with a subtract, divide, ... of two values (all but neuron_03);
# test-mul-zero-to-zero on llama31_70b, llama31_8b, mixtral and deepseek
# (a multiply by a zero broadcast in the entry; the independent values of
# the shared multiply differ from 0 and the cone is over the budget from
# the parameters, docs/proof.md "Realisable values"). The
# wrong moves and iterations on the 70B model are in cones far over the
# evaluation budget and are caught at the cut where the terms differ
# (src/check/cut.c).
BIN=$1
REAL=${2:-$(dirname "$0")/../../../shared/corpus/real}
[ -d "$REAL" ] || { echo "corpus $REAL absent: skipped"; exit 77; }
OPT=$BIN/hilo-opt-test # the test-only passes are in the test binary only
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FLOW="while-loop-unroller,simplify-concat,neuron-preprocess-kernel-duplicate-remover,neuron-dus-ds-index-simplifier,dynamic-slice-mover,neuron_all_gather_duplicate_remover,slice-of-concat-optimizer,neuron_repeated_dus_to_concat,dce"
EXPECT="test-dus-concat-gap-filled:gemma4_2b_bf16
test-ds-mover-start-off-by-one:hlo_llama31_70b_fp8_32x8
test-ds-mover-start-off-by-one:nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization
test-unroll-wrong-induction:hlo_llama31_70b_fp8_32x8
test-unroll-wrong-induction:nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization
test-unroll-wrong-induction:hlo_torax_iterhybrid_predictor_corrector_f64
test-swap-operands:gemma4_2b_bf16
test-swap-operands:graphhelper_neuron_llama2_dp1_tp1_pp1
test-swap-operands:hlo_llama31_70b_fp8_32x8
test-swap-operands:hlo_llama31_8b_bf16_1x8
test-swap-operands:hlo_mixtral_8x7b_bf16_2x8
test-swap-operands:hlo_torax_iterhybrid_predictor_corrector_f64
test-swap-operands:mobilenet_v2
test-swap-operands:neuron_02_nxd_llama2_tp8_pp4_allgather_allreduce
test-swap-operands:neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm
test-swap-operands:neuron_05_tnx_gpt2_tp2_fullyunrolled_scatter_allreduce
test-swap-operands:nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization
test-mul-zero-to-zero:hlo_llama31_70b_fp8_32x8
test-mul-zero-to-zero:hlo_llama31_8b_bf16_1x8
test-mul-zero-to-zero:hlo_mixtral_8x7b_bf16_2x8
test-mul-zero-to-zero:nv_maxtext_deepseek_1n4g_jit_train_step_before_optimization"

# Planted passes that fire on a dump where random testing does not see
# their error: reported as escapes, never as caught. Each is a limit of
# testing (the verdict says "tested", not "proved"), listed with what was
# tried. test-reassociate-add on neuron_02 regroups three bf16[1] adds of
# clip_grad_norm's sums (grads.py:128): no difference on 3, 10 or 30 input
# sets (issue 30 closing note).
known_escape() {
	case "$1" in
	test-reassociate-add:neuron_02_nxd_llama2_tp8_pp4_allgather_allreduce) return 0 ;;
	esac
	return 1
}

seed_of() {
	case $1 in
	test-soc-*) echo slice-of-concat-optimizer ;;
	test-dus-concat-*) echo neuron_repeated_dus_to_concat ;;
	test-all-gather-*) echo neuron_all_gather_duplicate_remover ;;
	test-ds-mover-*) echo dynamic-slice-mover ;;
	test-unroll-*) echo while-loop-unroller ;;
	test-dce-*) echo dce ;;
	test-swap-operands) echo - ;;
	test-ds-table-narrowed) echo - ;;
	test-effect-*) echo - ;;
	test-bitcast-*|test-copy-*|test-cse-constants-*) echo - ;;
	test-infeed-cse|test-reducer-*) echo - ;;
	test-sub-self-*|test-mul-zero-*) echo - ;;
	test-infeed-clone|test-call-operands-swapped|test-outfeed-added) echo - ;;
	test-callee-effect-dropped|test-entry-rebuilt-no-outfeed) echo - ;;
	test-ctrl-edge-reversed|test-token-chain-reordered|test-inline-ctrl-root-only) echo - ;;
	test-concat-add-snan) echo simplify-concat ;;
	test-nan-sign-flipped) echo - ;;
	# aliasing (issue 30 section 6): alone, on whatever aliasing a dump has
	test-aliasing-retargeted|test-io-alias-dropped) echo - ;;
	# over the real dumps' cones these are often over the testing budget
	# (skipped, not proved): caught under =strict
	test-reassociate-add|test-mul-reassociate|test-cse-float-commuted) echo strict ;;
	# lit only: whether the other layout reaches the bitcast depends on
	# contexts above the call site; where it fires in the corpus (torax)
	# the layout that reaches it is the declared one, and the call sites
	# prove the rewrite, rightly (tests/lit/test-passes/
	# layout_reshape_to_bitcast_callee.hlo has a wrong instance)
	test-reshape-to-bitcast-callee) echo lit ;;
	test-partition-id-folded|test-replica-id-as-partition-id) echo strict ;;
	# sound test passes (validator tests): where they fire, the check passes
	test-hoist-branch-outfeed|test-int-constants-regrouped) echo sound ;;
	*) echo "" ;;
	esac
}

planted=$("$OPT" --list-passes --all | awk '/\(test only\)/ {print $1}')
[ -n "$planted" ] || { echo "FAIL: no test-only passes listed"; exit 1; }
fail=0 ran=0 fired=0
for p in $planted; do
	[ -n "$(seed_of "$p")" ] || { echo "FAIL: $p: no seed pass known to this test"; fail=1; }
done
for f in "$REAL"/*.hlo; do
	[ -f "$f" ] || continue
	d=$(basename "$f" .hlo)
	ran=$((ran + 1))
	"$OPT" "$f" --passes="$FLOW" -o "$T/seed.hlo" 2>"$T/err" ||
		{ echo "FAIL $d: the seed flow: exit $?"; head -c 1000 "$T/err"; fail=1; continue; }
	"$OPT" "$f" -o "$T/input.hlo" 2>"$T/err" ||
		{ echo "FAIL $d: printing: exit $?"; fail=1; continue; }
	for p in $planted; do
		s=$(seed_of "$p")
		[ "$s" = lit ] && continue
		if [ "$s" = - ] || [ "$s" = sound ] || [ "$s" = strict ]; then
			passes=$p ref=$T/input.hlo
		else
			passes=$(echo ",$FLOW," | sed "s/,$s,/,$p,/; s/^,//; s/,\$//") ref=$T/seed.hlo
		fi
		"$OPT" "$f" --passes="$passes" -o "$T/out.hlo" 2>"$T/err"
		rc=$?
		if [ $rc != 0 ]; then
			echo "FAIL $p on $d: exit $rc without the check"; head -c 1000 "$T/err"; fail=1
			continue
		fi
		cmp -s "$T/out.hlo" "$ref" && continue
		fired=$((fired + 1))
		echo "$p:$d" >>"$T/fired"
		# checked up to the planted pass: the passes after it are not the
		# ones under test (its output differs from the seed's there, as the
		# flows' outputs differ)
		upto=$(echo ",$passes," | sed "s/,$p,.*/,$p/; s/^,//")
		mode=--check-equivalence
		[ "$s" = strict ] && mode=--check-equivalence=strict
		"$OPT" "$f" --passes="$upto" $mode -o "$T/out.hlo" 2>"$T/err"
		rc=$?
		line=$(grep '^equivalence:' "$T/err")
		method=$(grep -m1 "pass '$p' changed the program's result" "$T/err" |
			sed -n 's/.*; method \([a-z-]*\):.*/\1/p')
		# =strict: the planted pass is the only one run, so a skip is its own
		[ -z "$method" ] && [ "$s" = strict ] &&
			grep -q 'skipped (--check-equivalence=strict' "$T/err" && method=strict-skip
		if [ "$s" = sound ]; then
			if [ $rc != 0 ]; then
				echo "FAIL $p on $d: a sound rewrite, exit $rc ($line)"; head -c 2000 "$T/err"; fail=1
			else
				echo "ok   $p on $d: fires, sound, passes ($line)"
			fi
		elif [ $rc = 0 ] && known_escape "$p:$d"; then
			echo "ESCAPE (known) $p on $d: fires, exit 0 ($line)"
		elif [ $rc != 4 ]; then
			echo "FAIL $p on $d: fires, exit $rc, want 4 ($line)"; head -c 2000 "$T/err"; fail=1
		elif [ -z "$method" ]; then
			echo "FAIL $p on $d: fires, the failure does not name the pass"; head -c 2000 "$T/err"; fail=1
		else
			echo "ok   $p on $d: fires, caught by method $method ($line)${mode#--check-equivalence}"
		fi
	done
done
[ $ran -gt 0 ] || { echo "no corpus modules: skipped"; exit 77; }
for e in $EXPECT; do
	[ -f "$REAL/${e#*:}.hlo" ] || continue
	grep -qx "$e" "$T/fired" 2>/dev/null || { echo "FAIL: $e no longer fires"; fail=1; }
done
echo "$ran modules x $(echo "$planted" | wc -w) test-only passes: $fired fire"
exit $fail
