#!/bin/sh
# run_xla_unit.sh HILO_OPT CORPUS_DIR PASS [STRIDE]
# Runs `hilo-opt --passes=PASS --verify-each --check-equivalence` over every
# module under CORPUS_DIR (all subfolders). A module the parser rejects is
# counted (not a failure of the pass); a crash, a verifier failure (exit 3),
# a pass error on a module that parses, or an equivalence mismatch (exit 4)
# fails the test. Equivalence "skipped" (budget/unsupported) is counted.
# Exits 77 (ctest: skipped) when the corpus is absent.
# STRIDE > 1 runs every STRIDE-th module only (the sanitizer build uses it
# to keep the suite short; the release build runs them all).
opt=$1 dir=$2 pass=$3 stride=${4:-1}
[ -d "$dir" ] || { echo "corpus $dir missing: skipped"; exit 77; }
budget=${HILO_CORPUS_EVAL_BUDGET:-2000000}
tmp=${TMPDIR:-/tmp}/hilo_xu_$$_$pass
trap 'rm -f "$tmp.err"' EXIT
n=0 k=0 ok=0 skip=0 unparsed=0 fail=0
for f in $(find "$dir" -name '*.hlo' | sort); do
	k=$((k + 1))
	[ $(( (k - 1) % stride )) -eq 0 ] || continue
	n=$((n + 1))
	"$opt" "$f" --passes="$pass" --verify-each --check-equivalence \
		--eval-budget="$budget" >/dev/null 2>"$tmp.err"
	rc=$?
	if [ $rc -eq 1 ] && ! "$opt" "$f" >/dev/null 2>&1; then
		unparsed=$((unparsed + 1))
	elif [ $rc -ne 0 ]; then
		fail=$((fail + 1))
		echo "FAIL ($rc) $f"
		head -5 "$tmp.err"
	elif grep -q '^equivalence: skipped' "$tmp.err"; then
		skip=$((skip + 1))
	else
		ok=$((ok + 1))
	fi
done
echo "$pass: $n modules: $ok equivalent, $skip equivalence skipped, $unparsed not parsed, $fail failed"
[ $fail -eq 0 ]
