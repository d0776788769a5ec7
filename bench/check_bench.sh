#!/bin/sh
# check_bench.sh BUILD_DIR [SHARED_DIR] - SPEC section 9 / issue 13: the
# rewrite validator's cost beside the passes' own cost.
#  1. per corpus/real file: hilo-opt --pipeline=neuron --check-equivalence
#     --stats: the passes' time and the validation time (snapshots +
#     judging) from --stats, their ratio (target <= 5x), and the summary;
#  2. the unrolled flow on hlo_llama31_70b_fp8_32x8.hlo (while-loop-unroller,
#     index simplifier, dynamic-slice-mover, slice-of-concat, DUS-to-concat,
#     dce): wall time of the whole run with and without --check-equivalence
#     (target <= 5x), best of 3, and the CPU time of one run each;
#  3. the HTML rewrite report of that flow (issue 17: < 10 s, < 20 MB),
#     median of 3 wall times and the file's size.
build=${1:-build}
shared=${2:-../shared}
opt=$build/hilo-opt
[ -x "$opt" ] || { echo "check_bench: $opt not built" >&2; exit 1; }
dir=$shared/corpus/real
[ -d "$dir" ] || { echo "check_bench: $dir not found: skipped"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
now_ns() { date +%s%N; }

echo "== rewrite validation cost per corpus file (--pipeline=neuron; target <= 5x the passes)"
printf "   %-62s %9s %9s %7s  %s\n" file passes_ms check_ms ratio summary
for f in "$dir"/*.hlo; do
	"$opt" "$f" --pipeline=neuron --stats --check-equivalence -o "$tmp/out.hlo" 2>"$tmp/err"
	pm=$(awk '$1 == "total" { print $2 }' "$tmp/err")
	cm=$(awk '$1 == "rewrite" && $2 == "validation" { print $3 }' "$tmp/err")
	sum=$(grep '^equivalence: ' "$tmp/err" | sed 's/^equivalence: //')
	awk -v n="$(basename "$f")" -v p="$pm" -v c="$cm" -v s="$sum" 'BEGIN {
		r = p > 0 ? c / p : 0;
		printf "   %-62s %9.1f %9.1f %6.1fx  %s\n", n, p, c, r, s }'
done

f=$dir/hlo_llama31_70b_fp8_32x8.hlo
[ -f "$f" ] || exit 0
echo
echo "== unrolled flow on $(basename "$f") (best of 3; target <= 5x)"
ps=while-loop-unroller,neuron-dus-ds-index-simplifier,dynamic-slice-mover,slice-of-concat-optimizer,neuron_repeated_dus_to_concat,dce
best() { # command... -> best wall ms of 3
	b=0
	for k in 1 2 3; do
		t0=$(now_ns); "$@" -o "$tmp/out.hlo" 2>"$tmp/err"; t1=$(now_ns)
		ms=$(( (t1 - t0) / 1000000 ))
		[ $b = 0 ] || [ $ms -lt $b ] && b=$ms
	done
	echo $b
}
plain=$(best "$opt" "$f" --passes=$ps)
checked=$(best "$opt" "$f" --passes=$ps --check-equivalence)
sum=$(grep '^equivalence: ' "$tmp/err")
awk -v a="$plain" -v b="$checked" -v s="$sum" 'BEGIN {
	r = a > 0 ? b / a : 0;
	printf "   without the check %d ms, with it %d ms: %.2fx %s\n   %s\n", a, b, r,
		(r <= 5 ? "(meets <= 5x)" : "(over 5x)"), s }'
# CPU time too: on a shared machine wall time moves with the load
if [ -x /usr/bin/time ]; then
	cpu() { /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" -o "$tmp/out.hlo" 2>"$tmp/err"
		awk '{ printf "%d", ($1 + $2) * 1000 }' "$tmp/time"; }
	pc=$(cpu "$opt" "$f" --passes=$ps)
	cc=$(cpu "$opt" "$f" --passes=$ps --check-equivalence)
	awk -v a="$pc" -v b="$cc" 'BEGIN { printf "   CPU (user+sys): without %d ms, with %d ms: %.2fx\n", a, b,
		(a > 0 ? b / a : 0) }'
fi

# issue 17: the rewrite report of the same flow (target < 10 s, < 20 MB)
echo
echo "== --report=FILE.html of the unrolled flow (median of 3; target < 10 s and < 20 MB)"
ms=""
for k in 1 2 3; do
	t0=$(now_ns)
	"$opt" "$f" --passes=$ps --report="$tmp/report.html" -o "$tmp/out.hlo" 2>"$tmp/err"
	t1=$(now_ns)
	ms="$ms $(( (t1 - t0) / 1000000 ))"
done
med=$(printf '%s\n' $ms | sort -n | sed -n 2p)
bytes=$(wc -c < "$tmp/report.html" 2>/dev/null || echo 0)
awk -v m="$med" -v b="$bytes" -v all="$ms" 'BEGIN {
	printf "   %d ms (runs:%s), %.1f MB %s\n", m, all, b / 1e6,
		(m < 10000 && b < 20e6 ? "(meets < 10 s, < 20 MB)" : "(over target)") }'
