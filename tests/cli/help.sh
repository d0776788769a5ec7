#!/bin/sh
# --help of every tool: standard output, nothing on stderr, exit 0, the
# sections (usage line, options, exit status, environment, examples), every
# long option of the tool's getopt_long table and the environment variables
# the sources read; pto-opt's usage line names --list-passes and --no-verify
# and its help the default runtime. Also the messages that tell the user
# what to do: a skipped equivalence check names the budget and the flag.
# Usage: help.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
has() { # NAME FILE FIXED-STRING
	if grep -qF -- "$3" "$2"; then ok; else bad "$1 lacks '$3'"; fi
}

for t in hilo-opt hilo-run pto-opt hilo-bench; do
	"$build/$t" --help >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && ok || bad "$t --help: exit $rc"
	[ -s "$T/err" ] && bad "$t --help wrote to stderr" || ok
	[ "$(head -n 1 "$T/out" | cut -d' ' -f1-2)" = "usage: $t" ] && ok || bad "$t --help: first line is not the usage line"
	for section in "Options (" "Exit status:" "Environment:" "Examples:" "  0  success" "  2  usage error"; do
		has "$t --help" "$T/out" "$section"
	done
	# every long option the tool parses is documented
	for o in $(sed -n 's/^	{"\([a-z][a-z-]*\)", [a-z_]*_argument,.*/\1/p' "$src/tools/$t.c"); do
		grep -q -- "--$o\b" "$T/out" && ok || bad "$t --help does not document --$o"
	done
	# at least two examples, each naming the tool
	n=$(sed -n '/^Examples:/,$p' "$T/out" | grep -c "^  $t ")
	[ "$n" -ge 2 ] && ok || bad "$t --help: $n examples"
	# the lines fit a terminal
	awk -v t=$t 'length > 80 {print "FAIL: " t " --help line over 80 columns: " $0; bad = 1} END {exit bad}' "$T/out" && ok ||
		fail=$((fail + 1))
	# the fault-injection variables of the library (src/support)
	has "$t --help" "$T/out" "HILO_FAIL_ALLOC"
done
"$build/hilo-opt" --help >"$T/out"
has "hilo-opt --help" "$T/out" "NEURON_DISABLE_MOVEMENT_OF_SLICE_FROM_PARAM=1"
has "hilo-opt --help" "$T/out" "HILO_FAIL_WRITE"
has "hilo-opt --help" "$T/out" "(default 100000000)"
"$build/pto-opt" --help >"$T/out"
sed -n '/^usage:/,/^$/p' "$T/out" >"$T/usage"
has "pto-opt usage line" "$T/usage" "[--list-passes]"
has "pto-opt usage line" "$T/usage" "[--no-verify]"
has "pto-opt --help" "$T/out" "The default runtime is tensormap_and_ringbuffer"
has "pto-opt --help" "$T/out" "--runtime=host_build_graph."
# -h is --help
for t in hilo-opt hilo-run pto-opt hilo-bench; do
	"$build/$t" --help >"$T/a"; "$build/$t" -h >"$T/b"
	cmp -s "$T/a" "$T/b" && ok || bad "$t -h differs from --help"
done

# a skipped equivalence check names the budget and the flag raising it
in=$src/tests/lit/neuron-dus-ds-index-simplifier/stale_tokens_removed.hlo
"$build/hilo-opt" "$in" --passes=neuron-dus-ds-index-simplifier --check-equivalence --eval-budget=1 \
	>/dev/null 2>"$T/err"
has "per-rewrite skip" "$T/err" "equivalence: 1 rewrite skipped over the evaluation budget of 1 element-ops per check; --eval-budget=N raises it"
"$build/hilo-opt" "$in" --passes=neuron-dus-ds-index-simplifier --check-equivalence >/dev/null 2>"$T/err"
grep -q "skipped over" "$T/err" && bad "budget message without a skipped rewrite" || ok
in=$src/tests/lit/constant-folding/basic.hlo
"$build/hilo-opt" "$in" --passes=constant-folding --check-equivalence=module --eval-budget=1 >/dev/null 2>"$T/err"
has "whole-module skip" "$T/err" "equivalence: skipped (before: evaluator: the inputs of main are over the evaluation budget of 1 element-ops); --eval-budget=N raises the budget"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
