#!/bin/sh
# usage: run_cli.sh PTO_OPT TEST_DIR - command-line contract of pto-opt.
tool=$1 dir=$2
good=$dir/golden/step_a_derived_scalar.py
bad=$dir/golden/gb019_mixed_window.py
tmp=${TMPDIR:-/tmp}/pto_cli.$$
mkdir -p "$tmp" || exit 1
fail=0
check() { # expected-rc description command...
  want=$1 what=$2; shift 2
  "$@" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
  if [ $rc -ne "$want" ]; then echo "FAIL $what: exit $rc, expected $want"; cat "$tmp/stderr"; fail=1; fi
}
check 2 "unknown flag" "$tool" --frobnicate "$good"
check 2 "unknown pass" "$tool" --passes=no-such-pass "$good"
grep -q legalize-graph-boundary "$tmp/stderr" || { echo "FAIL unknown pass does not list the known passes"; fail=1; }
check 2 "unknown runtime" "$tool" --runtime=cuda "$good"
check 2 "two inputs" "$tool" "$good" "$good"
check 1 "missing input" "$tool" "$tmp/does-not-exist.py"
check 0 "help" "$tool" --help
check 0 "list passes" "$tool" --list-passes
# default runtime is tensormap_and_ringbuffer: a Graph is rejected (GB001)
check 1 "default runtime" "$tool" "$good"
grep -q "error GB001" "$tmp/stderr" || { echo "FAIL default runtime: no GB001"; fail=1; }
# stdin, print-only round trip
"$tool" --passes= - <"$good" >"$tmp/rt" 2>/dev/null && cmp -s "$good" "$tmp/rt" || { echo "FAIL stdin round trip"; fail=1; }
# -o is atomic: a rejected program leaves the previous OUT untouched
echo previous >"$tmp/out.py"
check 1 "rejected program" "$tool" --runtime=host_build_graph "$bad" -o "$tmp/out.py"
[ "$(cat "$tmp/out.py")" = previous ] || { echo "FAIL -o clobbered on error"; fail=1; }
ls "$tmp" | grep -q tmp && { echo "FAIL temporary file left behind"; ls "$tmp"; fail=1; }
check 0 "legalize to -o" "$tool" --runtime=host_build_graph "$good" -o "$tmp/out.py"
grep -q "__graph_arg0" "$tmp/out.py" || { echo "FAIL -o did not receive the output"; fail=1; }
[ -s "$tmp/stdout" ] && { echo "FAIL output went to stdout with -o"; fail=1; }
# verify-only run leaves an illegal-but-unlegalized program reported (exit 1)
check 1 "verify only" "$tool" --runtime=host_build_graph --passes=verify-graph-boundary "$good"
grep -q "error GB018" "$tmp/stderr" || { echo "FAIL verify-only: derived scalar not reported"; cat "$tmp/stderr"; fail=1; }
# a call with more keyword arguments than an expression can hold (65535) is a
# located error, not a wrapped count; 65535 of them still parse
if command -v python3 >/dev/null 2>&1; then
  for n in 65535 65536; do
    python3 -c "import sys; n=int(sys.argv[1]); print('def g():'); print('    x = f(' + ', '.join('k%d=0' % i for i in range(n)) + ')')" $n >"$tmp/kw$n.py"
  done
  check 0 "65535 keyword arguments" "$tool" --passes= "$tmp/kw65535.py" -o "$tmp/kw.out"
  cmp -s "$tmp/kw65535.py" "$tmp/kw.out" || { echo "FAIL 65535 keyword arguments do not print back"; fail=1; }
  check 1 "65536 keyword arguments" "$tool" --passes= "$tmp/kw65536.py" -o "$tmp/kw.out"
  grep -q "kw65536.py:2:.*error: more than 65535 keyword arguments" "$tmp/stderr" ||
    { echo "FAIL 65536 keyword arguments: no located error"; cat "$tmp/stderr"; fail=1; }
fi
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "pto.cli ok"
exit $fail
