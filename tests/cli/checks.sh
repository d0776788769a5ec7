# tests/cli/checks.sh - the check helpers the cli test scripts share
# (sourced: `. "$SRC/tests/cli/checks.sh"; checks_init NAME`). Each check
# counts one pass or prints "FAIL: ..." and counts one failure; a script
# ends with `checks_done`, which prints the tally and is its exit status.
# $T is the script's scratch folder (removed at exit); check leaves the
# command's standard output and error in $T/out and $T/err.

checks_init() { # name: the scratch folder's prefix
	T=${TMPDIR:-/tmp}/hilo_$1.$$
	mkdir -p "$T" || exit 1
	trap 'rm -rf "$T"' EXIT
	fail=0
	pass=0
}
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { # name expected-status command...
	name=$1; want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" != "$want" ]; then
		bad "$name: exit $got, want $want"; cat "$T/out" "$T/err"
	else
		ok
	fi
}
expect() { # name file substring
	if grep -qF -- "$3" "$2"; then ok; else bad "$1: $2 lacks '$3'"; cat "$2"; fi
}
expect_err() { # name substring of the last check's standard error
	if grep -qF -- "$2" "$T/err"; then ok; else bad "$1: stderr lacks '$2'"; cat "$T/err"; fi
}
expect_out() { # name expected-text (the last check's whole standard output)
	if [ "$(cat "$T/out")" != "$2" ]; then
		bad "$1: output"; cat "$T/out"; echo "want:"; echo "$2"
	else
		ok
	fi
}
checks_done() {
	echo "$pass passed, $fail failed"
	[ $fail -eq 0 ]
}
