#!/bin/sh
# hilo-opt --batch on 4 threads (issue 32 §5): the neuron pipeline with the
# rewrite check over the thread test's modules, three times, each run's
# outputs and summary (times apart) the same as one thread's. Under the
# build-tsan configuration (make test) ThreadSanitizer watches the workers
# share nothing but the options.
# Usage: batch.sh HILO_OPT INPUT...
set -u
OPT=$1
shift
T=${TMPDIR:-/tmp}/hilo_threads_batch.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
untimed() {
	sed 's/"seconds": [0-9.]*/"seconds": T/; s/"module_seconds": [0-9.]*, "wall_seconds": [0-9.]*/T/;
		s|"output": "[^"]*/|"output": "|' "$1"
}
"$OPT" --batch -j 1 --pipeline=neuron --check-equivalence --out-dir="$T/one" \
	--batch-summary="$T/one.json" "$@" >"$T/one.txt" 2>"$T/one.err" || {
	echo "FAIL: -j 1 exit $?"; cat "$T/one.err"; exit 1; }
for run in 1 2 3; do
	rm -rf "$T/four"
	"$OPT" --batch -j 4 --pipeline=neuron --check-equivalence --out-dir="$T/four" \
		--batch-summary="$T/four.json" "$@" >"$T/four.txt" 2>"$T/four.err" || {
		echo "FAIL: run $run: -j 4 exit $?"; cat "$T/four.err"; exit 1; }
	diff -r "$T/one" "$T/four" || { echo "FAIL: run $run: -j 4 outputs differ from -j 1's"; exit 1; }
	[ "$(untimed "$T/one.json")" = "$(untimed "$T/four.json")" ] ||
		{ echo "FAIL: run $run: -j 4 summary differs from -j 1's"; exit 1; }
	cmp -s "$T/one.err" "$T/four.err" || { echo "FAIL: run $run: -j 4 diagnostics differ"; exit 1; }
done
cat "$T/four.txt"
echo "ok: 3 runs of -j 4 agree with -j 1"
