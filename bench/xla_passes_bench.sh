#!/bin/sh
# bench/xla_passes_bench.sh BUILD SHARED (called by bench/run.sh, step 4)
# Issue 4's figure: hilo-opt --passes=call-inliner,tuple-simplifier,cse,dce
# on every corpus/real module: instruction counts before/after, rewrites,
# time inside the passes (from --stats) and the whole run's wall time
# beside the no-pass parse+verify+print time of the same file.
set -u
build=${1:-build}
shared=${2:-../shared}
opt=$build/hilo-opt
echo "== xla passes: call-inliner,tuple-simplifier,cse,dce on corpus/real"
[ -d "$shared/corpus/real" ] || { echo "   skipped: $shared/corpus/real not found"; exit 0; }
err=$(mktemp "${TMPDIR:-/tmp}/hilo_xpb.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
now_ns() { date +%s%N; }
rc=0
for f in "$shared"/corpus/real/*.hlo; do
	t0=$(now_ns); "$opt" "$f" >/dev/null 2>&1; t1=$(now_ns)
	"$opt" "$f" --passes=call-inliner,tuple-simplifier,cse,dce --stats >/dev/null 2>"$err"; s=$?
	t2=$(now_ns)
	if [ $s -ne 0 ]; then
		printf "   %-62s exit %d: %s\n" "$(basename "$f")" $s "$(head -c 100 "$err")"
		rc=1
		continue
	fi
	awk -v n="$(basename "$f")" -v base=$(( (t1 - t0) / 1000000 )) -v all=$(( (t2 - t1) / 1000000 )) \
		'$1 == "total" { printf "   %-62s instrs %6d -> %6d  rewrites %6d  passes %8.1f ms  run %6d ms (no passes %6d ms)\n", n, $3, $4, $5, $2, all, base }' "$err"
done
exit $rc
