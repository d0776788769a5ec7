#!/bin/sh
# tests/proto/scalar_layout.sh HILO_OPT FIXTURE
# An XLA-written proto gives every scalar an empty layout message
# (jax_scalars.pb: jax 0.10.2's lowering of f(x, n) = x * 2 + sum(n) with
# x an f32 scalar). Printed as text, a scalar with an empty layout is
# "f32[]", as XLA prints it: "f32[]{}" is read by neither XLA's parser nor
# hilo's (found by the XLA tier, issue 28). The text must parse again.
set -u
opt=$1
fixture=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo_scalar.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$opt" "$fixture" -o "$tmp/a.hlo" || { echo "FAIL: hilo-opt $fixture exit $?"; exit 1; }
if grep -n '\[\]{' "$tmp/a.hlo"; then
	echo "FAIL: a scalar printed with an empty layout"
	exit 1
fi
grep -q 'f32\[\] parameter(0)' "$tmp/a.hlo" || { echo "FAIL: no f32[] parameter in:"; cat "$tmp/a.hlo"; exit 1; }
"$opt" "$tmp/a.hlo" -o "$tmp/b.hlo" || { echo "FAIL: hilo does not read its own print back"; exit 1; }
cmp "$tmp/a.hlo" "$tmp/b.hlo" || { echo "FAIL: the print changes on a second trip"; exit 1; }
echo "ok"
