#!/bin/sh
# make bench: bench/run.sh BUILD SHARED
#
# SPEC section 9 figures, release build, one core at a time:
#  1. parse / verify / print throughput on every corpus/real/ file beside
#     the physical floor (re-reading and copying the same bytes) measured
#     in the same run (tools/hilo-bench.c);
#  2. hilo-opt --pipeline=neuron on each real file vs hilo-opt with no
#     passes (parse+verify+print), target at most 2x;
#  3. generated modules of 10k, 100k and 1M instructions (gen_module.py):
#     each 10x step must cost at most 11x, peak RSS at most 3x the text;
#  4. every bench/*_bench.sh (called with BUILD SHARED), among them
#     xla_bench.sh: hilo against XLA (jaxlib) on the same files, the ratios.
# Prints figures and verdicts; exits non-zero only when a tool fails.
# Machine-readable results (to compare commits), rewritten each run:
#  BUILD/bench.tsv        metric<TAB>value<TAB>unit, one figure a line
#                         (the totals and verdict figures of 1-3);
#  BUILD/bench-files.tsv  one row per file of 1 and 3: set, file, bytes,
#                         instrs, seconds of read/copy/parse/verify/print,
#                         peak RSS bytes, round trip ok, proto bytes,
#                         seconds of proto write/read.
set -u
build=${1:-build}
shared=${2:-../shared}
here=$(cd "$(dirname "$0")" && pwd)
bench=$build/hilo-bench
opt=$build/hilo-opt
[ -x "$bench" ] || { echo "bench: $bench not built" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hilo_bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
rc=0
out_tsv=$build/bench.tsv
files_tsv=$build/bench-files.tsv
printf 'metric\tvalue\tunit\n' >"$out_tsv"
printf 'set\tfile\tbytes\tinstrs\tread_s\tcopy_s\tparse_s\tverify_s\tprint_s\tpeak_rss_bytes\troundtrip_ok\tpb_bytes\tpb_write_s\tpb_read_s\n' >"$files_tsv"
metric() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$out_tsv"; }

now_ns() { date +%s%N; }

echo "== 1. parse / print throughput on corpus/real (target >= 300 MB/s each)"
if [ -d "$shared/corpus/real" ]; then
	"$bench" --tsv="$work/real.tsv" "$shared"/corpus/real/*.hlo || rc=1
	awk -F'\t' '{b+=$2; n+=$3; rd+=$4; cp+=$5; p+=$6; v+=$7; pr+=$8; pb+=$11; pw+=$12; prd+=$13}
	END { if (p > 0) {
		printf "   total %.1f MB, %d instrs: floor read %.0f MB/s, copy %.0f MB/s; parse %.1f MB/s (%.2f Minstr/s), verify %.1f MB/s, print %.1f MB/s\n", b/1e6, n, b/rd/1e6, b/cp/1e6, b/p/1e6, n/p/1e6, b/v/1e6, b/pr/1e6;
		printf "   parse %s, print %s the 300 MB/s target\n", (b/p/1e6 >= 300 ? "meets" : "is below"), (b/pr/1e6 >= 300 ? "meets" : "is below");
		if (pw > 0 && prd > 0)
			printf "   proto: %.1f MB: write %.1f MB/s, read %.1f MB/s (%s the 300 MB/s target)\n", pb/1e6, pb/pw/1e6, pb/prd/1e6, (pb/pw/1e6 >= 300 && pb/prd/1e6 >= 300 ? "meets" : "below") } }' "$work/real.tsv"
	sed 's/^/real\t/' "$work/real.tsv" >>"$files_tsv"
	awk -F'\t' '{b+=$2; n+=$3; rd+=$4; cp+=$5; p+=$6; v+=$7; pr+=$8; pb+=$11; pw+=$12; prd+=$13;
		r = $9 / $2; if (r > rmax) rmax = r }
	END { if (p > 0) {
		printf "real_bytes\t%d\tB\nreal_instrs\t%d\tinstrs\n", b, n;
		printf "real_floor_read\t%.1f\tMB/s\nreal_floor_copy\t%.1f\tMB/s\n", b/rd/1e6, b/cp/1e6;
		printf "real_parse\t%.1f\tMB/s\nreal_verify\t%.1f\tMB/s\nreal_print\t%.1f\tMB/s\n", b/p/1e6, b/v/1e6, b/pr/1e6;
		if (pw > 0 && prd > 0)
			printf "real_pb_write\t%.1f\tMB/s\nreal_pb_read\t%.1f\tMB/s\n", pb/pw/1e6, pb/prd/1e6;
		printf "real_peak_rss_max_ratio\t%.2f\tx text\n", rmax } }' "$work/real.tsv" >>"$out_tsv"
else
	echo "   skipped: $shared/corpus/real not found"
fi

echo
echo "== 2. hilo-opt --pipeline=neuron vs no passes (target <= 2x)"
if [ -d "$shared/corpus/real" ] && "$opt" --help 2>&1 | grep -q -- '--pipeline'; then
	for f in "$shared"/corpus/real/*.hlo; do
		t0=$(now_ns); "$opt" "$f" >/dev/null 2>&1; s0=$?; t1=$(now_ns)
		"$opt" "$f" --pipeline=neuron >/dev/null 2>"$work/err"; s1=$?; t2=$(now_ns)
		base=$(( (t1 - t0) / 1000000 )); pipe=$(( (t2 - t1) / 1000000 ))
		if [ $s0 -ne 0 ] || [ $s1 -ne 0 ]; then
			printf "   %-62s no-passes exit %d, pipeline exit %d: %s\n" "$(basename "$f")" $s0 $s1 "$(head -c 100 "$work/err")"
			continue
		fi
		awk -v n="$(basename "$f")" -v a=$base -v b=$pipe 'BEGIN {
			r = a > 0 ? b / a : 0;
			printf "   %-62s %6d ms -> %6d ms  %.2fx %s\n", n, a, b, r, (r <= 2 ? "" : "(over 2x)") }'
		metric "pipeline_ratio:$(basename "$f")" "$(awk -v a=$base -v b=$pipe 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')" "x no-passes"
	done
else
	echo "   skipped: no corpus or hilo-opt has no --pipeline yet"
fi

echo
echo "== 3. generated modules: near-linear scaling (each 10x step <= 11x), peak RSS <= 3x text"
for n in 10000 100000 1000000; do
	python3 "$here/gen_module.py" $n "$work/gen_$n.hlo" || { echo "   gen_module.py failed" >&2; rc=1; }
done
"$bench" --min-time=0.1 --tsv="$work/gen.tsv" "$work"/gen_10000.hlo "$work"/gen_100000.hlo "$work"/gen_1000000.hlo || rc=1
awk -F'\t' '{ name[NR]=$1; bytes[NR]=$2; p[NR]=$6; v[NR]=$7; pr[NR]=$8; rss[NR]=$9 }
END {
	for (k = 2; k <= NR; k++) {
		rp = p[k] / p[k-1]; rv = v[k] / v[k-1]; rr = pr[k] / pr[k-1];
		printf "   %s -> %s: parse %.1fx, verify %.1fx, print %.1fx %s\n", name[k-1], name[k], rp, rv, rr,
			(rp <= 11 && rv <= 11 && rr <= 11) ? "(near-linear)" : "(SUPERLINEAR: over 11x)";
	}
	for (k = 1; k <= NR; k++)
		printf "   %s: peak RSS %.0f MB = %.2fx the %.0f MB text %s\n", name[k], rss[k]/1048576, rss[k]/bytes[k], bytes[k]/1e6,
			(rss[k] <= 3 * bytes[k]) ? "" : "(over 3x)";
}' "$work/gen.tsv"
sed 's/^/gen\t/' "$work/gen.tsv" >>"$files_tsv"
awk -F'\t' '{ name[NR]=$1; bytes[NR]=$2; p[NR]=$6; v[NR]=$7; pr[NR]=$8; rss[NR]=$9; pb[NR]=$11; pw[NR]=$12; prd[NR]=$13 }
END {
	for (k = 1; k <= NR; k++) {
		printf "%s_parse\t%.1f\tMB/s\n%s_verify\t%.1f\tMB/s\n%s_print\t%.1f\tMB/s\n", name[k], bytes[k]/p[k]/1e6, name[k], bytes[k]/v[k]/1e6, name[k], bytes[k]/pr[k]/1e6;
		if (pw[k] > 0 && prd[k] > 0)
			printf "%s_pb_write\t%.1f\tMB/s\n%s_pb_read\t%.1f\tMB/s\n", name[k], pb[k]/pw[k]/1e6, name[k], pb[k]/prd[k]/1e6;
		printf "%s_peak_rss_ratio\t%.2f\tx text\n", name[k], rss[k]/bytes[k];
	}
	for (k = 2; k <= NR; k++)
		printf "step_%s_parse\t%.2f\tx\nstep_%s_verify\t%.2f\tx\nstep_%s_print\t%.2f\tx\n", name[k], p[k]/p[k-1], name[k], v[k]/v[k-1], name[k], pr[k]/pr[k-1];
}' "$work/gen.tsv" >>"$out_tsv"
if "$opt" --help 2>&1 | grep -q -- '--pipeline'; then
	for n in 10000 100000 1000000; do
		t0=$(now_ns); "$opt" "$work/gen_$n.hlo" --pipeline=neuron >/dev/null 2>&1; s=$?; t1=$(now_ns)
		printf "   hilo-opt --pipeline=neuron gen_%s.hlo: %d ms (exit %d)\n" $n $(( (t1 - t0) / 1000000 )) $s
		metric "pipeline_gen_$n" $(( (t1 - t0) / 1000000 )) ms
	done
fi

for b in "$here"/*_bench.sh; do
	[ -e "$b" ] || continue
	echo
	echo "== $(basename "$b")"
	sh "$b" "$build" "$shared" || rc=1
done
echo
echo "== machine-readable: $out_tsv, $files_tsv"
exit $rc
