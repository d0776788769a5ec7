#!/bin/sh
# fuzz/run.sh BUILD_DIR SECONDS [TARGET...] - runs each libFuzzer target
# (all of BUILD_DIR/fuzz/fuzz_* by default) for SECONDS seconds on its seed
# corpus, one after the other, and prints executions and findings per
# target. New corpus entries go to BUILD_DIR/fuzz/work_<name> (kept across
# runs); crash/leak/timeout reproducers to BUILD_DIR/fuzz/findings_<name>/.
# Exit status 1 when any target found something.
set -u
build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
secs=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
fdir=$build/fuzz
[ -d "$fdir" ] || { echo "fuzz/run.sh: no $fdir (configure with -DHILO_FUZZ=ON: make build-san)" >&2; exit 2; }
if [ $# -eq 0 ]; then
	set -- $(cd "$fdir" && ls fuzz_* 2>/dev/null | sed 's/^fuzz_//')
fi
total=0
status=0
for t in "$@"; do
	bin=$fdir/fuzz_$t
	[ -x "$bin" ] || { echo "fuzz/run.sh: no target $bin" >&2; exit 2; }
	work=$fdir/work_$t
	found=$fdir/findings_$t
	mkdir -p "$work" "$found"
	log=$fdir/log_$t.txt
	before=$(ls "$found" | wc -l)
	# -max_len: the pass pipeline's seeds are whole modules
	maxlen=4096
	[ "$t" = passes ] && maxlen=65536
	"$bin" -max_total_time="$secs" -max_len=$maxlen -timeout=20 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$found/" "$work" "$here/corpus_$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	[ -n "$execs" ] || execs=0
	after=$(ls "$found" | wc -l)
	new=$((after - before))
	printf 'fuzz %-10s %10s executions in %ss, %d finding(s)%s\n' "$t" "$execs" "$secs" "$new" \
		"$([ $new -gt 0 ] && echo " in $found (log $log)")"
	[ $rc -ne 0 ] || [ $new -gt 0 ] && status=1
	total=$((total + execs))
done
echo "fuzz total: $total executions"
exit $status
