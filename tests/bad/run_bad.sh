#!/bin/sh
# Bad-input check for one file: run_bad.sh HILO_OPT DIR NAME
# In DIR, `hilo-opt NAME.hlo` must exit 1 with empty stdout and print as
# its first stderr line exactly NAME.err (FILE:LINE:COL: error: ...);
# `hilo-opt NAME.hlo -o OUT` must also exit 1, leave a pre-existing OUT
# byte for byte untouched and leave no other file behind. A 30 s timeout
# turns a hang into a failure.
set -u
opt=$1 dir=$2 name=$3
cd "$dir" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo_bad.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $name: $*" >&2; exit 1; }

timeout 30 "$opt" "$name.hlo" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ $rc -eq 1 ] || { cat "$tmp/stderr" >&2; fail "exit status $rc, expected 1"; }
[ -s "$tmp/stdout" ] && fail "stdout is not empty ($(wc -c <"$tmp/stdout") bytes)"
head -n 1 "$tmp/stderr" >"$tmp/first"
if ! cmp -s "$tmp/first" "$name.err"; then
	echo "expected: $(cat "$name.err")" >&2
	echo "got:      $(cat "$tmp/first")" >&2
	fail "first diagnostic differs"
fi

mkdir "$tmp/out"
printf 'previous contents\n' >"$tmp/out/OUT"
timeout 30 "$opt" "$name.hlo" -o "$tmp/out/OUT" >"$tmp/stdout2" 2>/dev/null
rc=$?
[ $rc -eq 1 ] || fail "with -o: exit status $rc, expected 1"
[ -s "$tmp/stdout2" ] && fail "with -o: stdout is not empty"
[ "$(cat "$tmp/out/OUT")" = "previous contents" ] || fail "with -o: OUT was modified"
[ "$(ls -A "$tmp/out")" = "OUT" ] || fail "with -o: files left behind: $(ls -A "$tmp/out" | tr '\n' ' ')"
echo "ok $name"
