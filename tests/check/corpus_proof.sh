#!/bin/sh
# corpus_proof.sh HILO_OPT CORPUS_REAL_DIR
# Issue 13's acceptance run: `hilo-opt FILE --pipeline=neuron
# --check-equivalence` on every module of corpus/real must print the
# summary line with 0 failed and 0 skipped; over the whole corpus at least
# 95% of the rewrites must be proved (the rest tested). Then the broken
# test pass test-swap-operands must be caught (exit 4, the pass named) on
# a real dump. Exits 77 (ctest: skipped) when the corpus is missing.
opt=$1 dir=$2
[ -d "$dir" ] || { echo "corpus $dir missing: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 R=0 P=0 n=0
for f in "$dir"/*.hlo; do
	n=$((n + 1))
	"$opt" "$f" --pipeline=neuron --check-equivalence -o "$tmp/out.hlo" 2>"$tmp/err"
	rc=$?
	line=$(grep '^equivalence: ' "$tmp/err")
	echo "$(basename "$f"): $line"
	if [ $rc != 0 ] || [ -z "$line" ]; then
		echo "FAIL $(basename "$f"): exit $rc"; head -c 3000 "$tmp/err"; fail=1; continue
	fi
	set -- $line
	# equivalence: R rewrites: P proved, T tested (N inputs), S skipped, F failed
	r=$2 p=$4 s=${10} fl=${12}
	[ "$s" = 0 ] && [ "$fl" = 0 ] || { echo "FAIL $(basename "$f"): skipped or failed"; fail=1; }
	R=$((R + r)) P=$((P + p))
done
[ $n -gt 0 ] || { echo "no corpus modules: skipped"; exit 77; }
echo "corpus: $n modules, $R rewrites, $P proved"
if [ $R -gt 0 ] && [ $((P * 100)) -lt $((R * 95)) ]; then
	echo "FAIL: fewer than 95% of the rewrites proved"; fail=1
fi
# the broken pass on a real dump: caught, the pass named
f=$dir/neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm.hlo
if [ -f "$f" ]; then
	"$opt" "$f" --passes=test-swap-operands --check-equivalence -o "$tmp/out.hlo" 2>"$tmp/err"
	rc=$?
	if [ $rc != 4 ] || ! grep -q "pass 'test-swap-operands' changed the program's result" "$tmp/err"; then
		echo "FAIL: test-swap-operands not caught on $(basename "$f") (exit $rc)"; head -c 2000 "$tmp/err"; fail=1
	else
		echo "test-swap-operands caught on $(basename "$f")"
	fi
fi
exit $fail
