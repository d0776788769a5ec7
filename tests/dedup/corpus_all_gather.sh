#!/bin/sh
# corpus_all_gather.sh HILO_OPT CORPUS_REAL_DIR PASS [FILE:EXPECTED[:equiv] ...]
# Runs PASS (neuron_all_gather_duplicate_remover or
# neuron-preprocess-kernel-duplicate-remover) with --verify-each --stats on
# real modules and checks the pass's rewrite count in the --stats table
# (for #106: merged gathers) against the expected figure. ":equiv" also
# runs --check-equivalence (small modules only; "skipped" is accepted, a
# mismatch fails). Exits 77 (ctest: skipped) when the corpus is missing.
opt=$1 dir=$2 pass=$3
shift 3
[ -d "$dir" ] || { echo "corpus $dir missing: skipped"; exit 77; }
tmp=${TMPDIR:-/tmp}/hilo_ag_corpus.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for spec in "$@"; do
	f=${spec%%:*}; rest=${spec#*:}; want=${rest%%:*}; mode=${rest#*:}
	[ -f "$dir/$f" ] || { echo "missing $dir/$f: skipped"; exit 77; }
	extra=
	[ "$mode" = equiv ] && extra=--check-equivalence
	if ! "$opt" "$dir/$f" --passes="$pass" --verify-each --stats \
		$extra -o "$tmp/out.hlo" 2>"$tmp/err"; then
		echo "FAIL $f: hilo-opt failed"; cat "$tmp/err"; fail=1; continue
	fi
	got=$(awk -v p="$pass" '$1 == p { print $5 }' "$tmp/err")
	gathers=$(grep -c ' all-gather(' "$dir/$f")
	echo "$pass $f: all-gathers=$gathers rewrites=$got (expected $want)"
	[ "$got" = "$want" ] || { echo "FAIL $f"; cat "$tmp/err"; fail=1; }
done
exit $fail
