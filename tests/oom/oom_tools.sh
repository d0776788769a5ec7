#!/bin/sh
# oom_tools.sh HILO_OPT PTO_OPT|- HLO PTO_PY STRIDE - the out-of-memory sweep
# through the tool binaries (a -DHILO_FAULT_INJECTION=ON build): for
# K = 1, 1+STRIDE, ... until a run no longer fails, HILO_FAIL_ALLOC=K must
# make the tool exit 1 with "error: out of memory" on stderr, leave no
# output file (and no temporary) in the scratch folder, and trip no
# sanitizer (ASan/LSan report with exit code 99 here, so they cannot pass
# for the expected 1).
set -u
hopt=$1 popt=$2 hlo=$3 py=$4 stride=$5
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="detect_leaks=1:exitcode=99${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
bad=0
# sweep NAME CMD...: runs CMD (output to $tmp/out/OUT) for each K
sweep() {
	name=$1
	shift
	k=1 runs=0
	while :; do
		rm -rf "$tmp/out"
		mkdir "$tmp/out"
		HILO_FAIL_ALLOC=$k "$@" >"$tmp/stdout" 2>"$tmp/stderr"
		rc=$?
		if [ $rc -eq 0 ]; then
			[ -s "$tmp/out/OUT" ] || { echo "$name: K=$k exit 0 without output"; bad=1; }
			break
		fi
		runs=$((runs + 1))
		if [ $rc -ne 1 ] || ! grep -q "error: out of memory" "$tmp/stderr"; then
			echo "$name: K=$k: exit $rc, expected 1 with 'error: out of memory':"
			head -n 20 "$tmp/stderr"
			bad=1
		fi
		if [ -n "$(ls -A "$tmp/out")" ] || [ -s "$tmp/stdout" ]; then
			echo "$name: K=$k: partial output left: $(ls -A "$tmp/out")"
			bad=1
		fi
		k=$((k + stride))
		[ $k -gt 200000 ] && { echo "$name: no successful run up to K=$k"; bad=1; break; }
	done
	echo "$name: $runs failing runs (K=1..$k step $stride), last K succeeded"
}
sweep "hilo-opt text" "$hopt" "$hlo" --pipeline=neuron --verify-each --check-equivalence -o "$tmp/out/OUT"
sweep "hilo-opt proto" "$hopt" "$hlo" --pipeline=neuron --emit-proto -o "$tmp/out/OUT"
sweep "hilo-opt dot" "$hopt" "$hlo" --emit=dot -o "$tmp/out/OUT"
sweep "hilo-opt stats" "$hopt" "$hlo" --stats=ops-json -o "$tmp/out/OUT"
root=$(sed -n 's/^ *ROOT %\{0,1\}\([^ ]*\) = .*/\1/p' "$hlo" | tail -n 1)
sweep "hilo-opt extract" "$hopt" "$hlo" --extract="$root" -o "$tmp/out/OUT"
[ "$popt" = - ] || sweep "pto-opt" "$popt" --runtime=host_build_graph "$py" -o "$tmp/out/OUT"
exit $bad
