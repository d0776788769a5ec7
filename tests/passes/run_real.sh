#!/bin/sh
# run_real.sh HILO_OPT REAL_DIR
# hilo-opt --passes=call-inliner,tuple-simplifier,cse,dce --verify-each
# --stats on every real module: must exit 0 (verifier clean after each
# pass). Prints the instruction counts before/after and the wall time per
# module. Exits 77 (ctest: skipped) when the corpus is absent.
opt=$1 dir=$2
[ -d "$dir" ] || { echo "corpus $dir missing: skipped"; exit 77; }
tmp=${TMPDIR:-/tmp}/hilo_real_$$
trap 'rm -f "$tmp.err"' EXIT
fail=0
for f in $(find "$dir" -name '*.hlo' | sort); do
	t0=$(date +%s.%N)
	"$opt" "$f" --passes=call-inliner,tuple-simplifier,cse,dce --verify-each --stats \
		>/dev/null 2>"$tmp.err"
	rc=$?
	t1=$(date +%s.%N)
	if [ $rc -ne 0 ]; then
		fail=$((fail + 1))
		echo "FAIL ($rc) $f"
		head -5 "$tmp.err"
		continue
	fi
	awk -v f="$(basename "$f")" -v t0="$t0" -v t1="$t1" \
		'$1 == "total" { printf "%-70s instrs %8d -> %8d  rewrites %7d  passes %8.1f ms  total %7.2f s\n", f, $3, $4, $5, $2, t1 - t0 }' "$tmp.err"
done
[ $fail -eq 0 ]
