#!/bin/sh
# corpus_figures.sh HILO_OPT CORPUS_REAL_DIR [--expect=TEXT] [FILE...]
# Runs the loop-unrolled index flow on real modules with while loops
# (default: every .hlo in the folder that has one) with --verify-each
# --stats, and prints per module: loops unrolled / declined, tokens
# written, dynamic-slices moved, DUS chains turned into concatenates.
# With --expect=TEXT every figure line must contain TEXT (pins the
# index-pass figures of the named modules).
# Exit 77 (skipped) when the corpus folder is missing; 1 on any failure.
opt=$1; dir=$2; shift 2
expect=
case ${1:-} in --expect=*) expect=${1#--expect=}; shift;; esac
[ -d "$dir" ] || { echo "corpus folder $dir missing: skipped"; exit 77; }
[ $# -gt 0 ] || set -- $(cd "$dir" && grep -l ' while(' *.hlo)
# the flow as issue 9 states it, and the same with the call chain inlined
# before the concat passes (neuron_repeated_dus_to_concat declines chains
# that are still split across call bodies)
flow=while-loop-unroller,neuron-dus-ds-index-simplifier,dynamic-slice-mover
plain=$flow,slice-of-concat-optimizer,neuron_repeated_dus_to_concat,dce
inlined=$flow,call-inliner,tuple-simplifier,dce,neuron_repeated_dus_to_concat,slice-of-concat-optimizer,dce
tmp=${TMPDIR:-/tmp}/hilo_e2e_$$
mkdir -p "$tmp"
status=0
for f in "$@"; do
	for run in "plain" "plain --unroll-markers" "inlined"; do
		set -- $run
		eval passes=\$$1
		markers=${2:-}
		if ! "$opt" "$dir/$f" --passes=$passes $markers --verify-each --stats \
			--remarks="$tmp/r.jsonl" -o "$tmp/out.hlo" 2> "$tmp/err"; then
			echo "FAIL $f $run"; cat "$tmp/err"; status=1; continue
		fi
		r=$tmp/r.jsonl
		n() { grep -c "$1" "$r"; }
		line="$f [$run]: loops unrolled $(n '"while-loop-unroller".*"rewritten"'),"
		line="$line declined $(n '"while-loop-unroller".*"declined"');"
		line="$line dsidxnow written $(n 'wrote dsidxnow'), dusidxnow written $(n 'wrote dusidxnow');"
		line="$line DS moved $(n '"dynamic-slice-mover".*"moved dynamic-slice'),"
		line="$line slice-of-concat $(n '"slice-of-concat-optimizer".*"rewritten"'),"
		line="$line DUS chains->concat $(n '"neuron_repeated_dus_to_concat".*"rewritten"');"
		line="$line instructions $(grep '^  total' "$tmp/err" | awk '{print $3 " -> " $4}')"
		echo "$line"
		case $line in *"$expect"*) ;; *) echo "FAIL expected: $expect"; status=1;; esac
	done
done
rm -rf "$tmp"
exit $status
