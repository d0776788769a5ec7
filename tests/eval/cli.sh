#!/bin/sh
# hilo-run command-line behaviour: usage errors, --print, --input files,
# seeded determinism, refusal of elided constants; with hilo-opt present,
# --check-equivalence passing on a correct pass run.
#   cli.sh BINDIR SRCDIR
BIN=$1
IN=$2/inputs
RUN=$BIN/hilo-run
OPT=$BIN/hilo-opt-test # hilo-opt with the test-only passes (tests/lib)
T=${TMPDIR:-/tmp}/hilo_eval_cli.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
fail=0
check() { # name expected-status command...
	name=$1; want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: exit $got, want $want"; cat "$T/err"; fail=1
	fi
}
expect_out() { # name expected-text
	if [ "$(cat "$T/out")" != "$2" ]; then
		echo "FAIL $1: output"; cat "$T/out"; echo "want:"; echo "$2"; fail=1
	fi
}
expect_err() { # name substring
	grep -q -- "$2" "$T/err" || { echo "FAIL $1: stderr lacks '$2'"; cat "$T/err"; fail=1; }
}

check usage 2 "$RUN"
check unknown_flag 2 "$RUN" "$IN/add_params.hlo" --frobnicate
expect_err unknown_flag "^hilo-run: error: unknown option '--frobnicate'$"
check bad_seed 2 "$RUN" "$IN/add_params.hlo" --seed=x
check missing_file 1 "$RUN" "$T/nope.hlo"

check inputs 0 "$RUN" "$IN/add_params.hlo" --input="$IN/in0.txt" --input="$IN/in1.txt" --print
expect_out inputs "output 0: f32[2]{0} {2, 5}
output 1: s32[] -7"
check input_count 1 "$RUN" "$IN/add_params.hlo" --input="$IN/in0.txt" --print
check input_shape 1 "$RUN" "$IN/add_params.hlo" --input="$IN/in_wrong_shape.txt" --input="$IN/in1.txt"
expect_err input_shape "does not match"

check seeded_a 0 "$RUN" "$IN/add_params.hlo" --seed=5 --print
cp "$T/out" "$T/a"
check seeded_b 0 "$RUN" "$IN/add_params.hlo" --seed=5 --print
cmp -s "$T/a" "$T/out" || { echo "FAIL seeded: same seed gave different outputs"; fail=1; }
check seeded_c 0 "$RUN" "$IN/add_params.hlo" --seed=6 --print
cmp -s "$T/a" "$T/out" && { echo "FAIL seeded: different seeds gave the same outputs"; fail=1; }
check summary 0 "$RUN" "$IN/add_params.hlo"
grep -q '^output 1: s32\[\] hash=' "$T/out" || { echo "FAIL summary"; cat "$T/out"; fail=1; }

check elided 1 "$RUN" "$IN/elided.hlo"
expect_err elided "elided"
# an input whose tuple element is elided holds no values either (it read,
# and printed back as text that did not: fuzz_literal)
printf 'HloModule t\n\nENTRY e {\n  ROOT p = (u8[4]) parameter(0)\n}\n' > "$T/tuple_param.hlo"
printf '(u8[4]) ( {...} )\n' > "$T/tuple_elided.txt"
check input_tuple_elided 1 "$RUN" "$T/tuple_param.hlo" --input="$T/tuple_elided.txt"
expect_err input_tuple_elided "tuple_elided.txt:1:1: error: literal values are elided"
# a NUL byte in an input (here inside a layout) is refused at its byte: it
# would cut the layout's text short, which then printed back unreadable
printf 'u8[4]{:.(x\000y)}\n 7\n' > "$T/nul.txt"
printf 'HloModule t\n\nENTRY e {\n  ROOT p = u8[4] parameter(0)\n}\n' > "$T/u8_param.hlo"
check input_nul 1 "$RUN" "$T/u8_param.hlo" --input="$T/nul.txt"
expect_err input_nul "nul.txt:1:11: error: NUL byte in input"
check budget 1 "$RUN" "$IN/dus_chain.hlo" --budget=10
expect_err budget "budget"

# the window of d1 is exactly y: slice - x == y - x
check dus_chain 0 "$RUN" "$IN/dus_chain.hlo" --print

if [ -x "$OPT" ]; then
	# whole-module comparison (--check-equivalence=module)
	check equiv_ok 0 "$OPT" "$IN/dus_chain.hlo" --passes=dce --check-equivalence=module
	check equiv_skip 0 "$OPT" "$IN/elided.hlo" --passes=dce --check-equivalence=module
	expect_err equiv_skip "equivalence: skipped"
	# a deliberately wrong rewrite (operands of the subtract swapped) is
	# caught: exit 4 naming the output element, both values and the seed
	check equiv_broken 4 "$OPT" "$IN/dus_chain.hlo" --passes=test-swap-operands \
		--check-equivalence=module --seed=11
	expect_err equiv_broken "equivalence check failed: output element \[0,0\]: before=.* after=.* (seed 11)"
	check equiv_broken_then_ok 0 "$OPT" "$IN/dus_chain.hlo" \
		--passes=test-swap-operands,test-swap-operands --check-equivalence=module
	# the per-rewrite validator (the default): the summary line, and the
	# broken pass named with the rewrite, the frontier, the method, the
	# seed and both values
	check val_ok 0 "$OPT" "$IN/dus_chain.hlo" --passes=dce --check-equivalence=2
	expect_err val_ok "^equivalence: 0 rewrites: 0 proved, 0 tested (2 inputs), 0 skipped, 0 failed$"
	check val_broken 4 "$OPT" "$IN/dus_chain.hlo" --passes=test-swap-operands \
		--check-equivalence --seed=11
	expect_err val_broken "^equivalence: 2 rewrites: 0 proved, 0 tested (3 inputs), 0 skipped, 2 failed$"
	# data movement only (slices of updates): a proof's counterexample, both
	# sides' tags decoded (leaf, index)
	expect_err val_broken "error: equivalence check failed: pass 'test-swap-operands' changed the program's result: in main: operand 0 of r: s (.*) replaced by x (.*); frontier: .*; method tagged: output element \[0,0\]: before=y\[0,0\] after=x\[0,0\] (injectively tagged inputs)"
	# arithmetic terms that differ prove nothing either way: tested, and
	# the random counterexample names the seed
	check val_broken_random 4 "$OPT" "$IN/sub_exp.hlo" --passes=test-swap-operands \
		--check-equivalence --seed=11
	expect_err val_broken_random "^equivalence: 2 rewrites: 0 proved, 0 tested (3 inputs), 0 skipped, 2 failed$"
	expect_err val_broken_random "error: equivalence check failed: pass 'test-swap-operands' changed the program's result: in main: operand [01] of r: [ey] (.*) replaced by [ey] (.*); frontier: .*; method random: output element \[.*\]: before=.* after=.* (seed 11)"
	# swapped twice: each pass is judged on its own (both fail)
	check val_twice 4 "$OPT" "$IN/dus_chain.hlo" \
		--passes=test-swap-operands,test-swap-operands --check-equivalence
	expect_err val_twice "4 failed"
	check val_strict_ok 0 "$OPT" "$IN/dus_chain.hlo" --passes=dce --check-equivalence=strict
	check val_usage 2 "$OPT" "$IN/dus_chain.hlo" --check-equivalence=sometimes
fi
[ $fail = 0 ] && echo "eval cli: ok"
exit $fail
