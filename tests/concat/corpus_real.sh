#!/bin/sh
# Runs simplify-concat, slice-of-concat-optimizer and
# neuron_repeated_dus_to_concat with --verify-each --stats on every
# corpus/real module and compares each pass's rewrite count with the pinned
# value (FILE:SIMPLIFY:SLICE:DUS arguments; modules not listed must make 0
# rewrites). Skipped (exit 77), never passed, without the corpus.
#   corpus_real.sh HILO_OPT CORPUS_REAL_DIR [FILE:N1:N2:N3 ...]
opt=$1; dir=$2; shift 2
[ -d "$dir" ] || { echo "corpus folder $dir missing: skipped"; exit 77; }
ls "$dir"/*.hlo >/dev/null 2>&1 || { echo "no modules in $dir: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for f in "$dir"/*.hlo; do
	b=$(basename "$f")
	want="0 0 0"
	for p in "$@"; do
		case "$p" in "$b":*) want=$(echo "${p#"$b":}" | tr ':' ' ');; esac
	done
	"$opt" "$f" --passes=simplify-concat,slice-of-concat-optimizer,neuron_repeated_dus_to_concat \
		--verify-each --stats -o "$tmp/out.hlo" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $b: hilo-opt exit $rc"; cat "$tmp/err"; fail=1; continue
	fi
	got=$(awk '$1=="simplify-concat"{a=$5} $1=="slice-of-concat-optimizer"{b=$5} $1=="neuron_repeated_dus_to_concat"{c=$5} END{print a, b, c}' "$tmp/err")
	if [ "$got" != "$want" ]; then
		echo "FAIL $b: rewrites (simplify-concat slice-of-concat dus-to-concat) = $got, expected $want"; fail=1
	else
		echo "ok   $b: $got"
	fi
done
exit $fail
