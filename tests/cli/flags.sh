#!/bin/sh
# One flag grammar for every tool (tools/common/cli.c): the exact messages
# scripts rely on, and the forms getopt_long accepts.
#   unknown option: "TOOL: error: unknown option '--x'" (with "did you mean"
#     when a long option is close), the usage lines,
#     "Run 'TOOL --help' for every option.", exit 2, nothing on stdout;
#   -oFILE = -o FILE, --flag value = --flag=value, "--" ends the options;
#   numeric values checked: "TOOL: error: invalid value 'V' for --x: expected ...";
#   a missing file, a directory, an empty file: the same located messages.
# Usage: flags.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
hlo=$src/tests/eval/inputs/add_params.hlo
pto=$src/tests/pto/golden/step_a_derived_scalar.py
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# run NAME WANT_RC TOOL ARGS...: stdout in $T/out, stderr in $T/err
run() {
	name=$1 want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		bad "$name: exit $rc, want $want"; sed 's/^/  | /' "$T/err"; return 1
	fi
	return 0
}
# first line of stderr is exactly $2
err1() {
	got=$(head -n 1 "$T/err")
	if [ "$got" = "$2" ]; then ok; else bad "$1: stderr '$got', want '$2'"; fi
}
no_out() { if [ -s "$T/out" ]; then bad "$1: wrote to stdout"; else ok; fi; }

for t in hilo-opt hilo-run pto-opt hilo-bench; do
	tool=$build/$t
	for flag in --no-such-flag --no-such-flag=3 -Z --vers; do
		shown=${flag%%=*}
		if run "$t $flag" 2 "$tool" "$flag"; then
			hint=
			[ "$flag" = --vers ] && hint=" (did you mean '--version'?)"
			err1 "$t $flag" "$t: error: unknown option '$shown'$hint"
			no_out "$t $flag"
			# then the usage lines and the pointer to --help
			if sed -n 2p "$T/err" | grep -q "^usage: $t " &&
			   [ "$(tail -n 1 "$T/err")" = "Run '$t --help' for every option." ]; then ok
			else bad "$t $flag: no usage lines after the error"; sed 's/^/  | /' "$T/err"; fi
		fi
	done
	run "$t --version=1" 2 "$tool" --version=1 && err1 "$t --version=1" "$t: error: option '--version' takes no value"
	run "$t --help" 0 "$tool" --help && { [ -s "$T/out" ] && [ ! -s "$T/err" ] && ok || bad "$t --help: not on stdout alone"; }
	run "$t -h" 0 "$tool" -h && { "$tool" --help | cmp -s - "$T/out" && ok || bad "$t -h differs from --help"; }
	# the input: missing, a directory, empty, whitespace only
	what="'HloModule'"
	[ $t = pto-opt ] && what="a PyPTO program"
	mkdir -p "$T/dir"
	: >"$T/empty"
	printf '\n  \n' >"$T/blank"
	run "$t missing" 1 "$tool" "$T/nope" && err1 "$t missing" "$T/nope: error: cannot open: No such file or directory"
	run "$t dir" 1 "$tool" "$T/dir" && err1 "$t dir" "$T/dir: error: is a directory"
	run "$t empty" 1 "$tool" "$T/empty" && err1 "$t empty" "$T/empty:1:1: error: empty input: expected $what"
	run "$t blank" 1 "$tool" "$T/blank" && err1 "$t blank" "$T/blank:3:1: error: empty input: expected $what"
done

# -o FILE, -oFILE, --flag value, --flag=value, "--"
opt=$build/hilo-opt
run "hilo-opt --passes=dce" 0 "$opt" "$hlo" --passes=dce && cp "$T/out" "$T/want"
run "hilo-opt --passes dce" 0 "$opt" --passes dce "$hlo" && { cmp -s "$T/want" "$T/out" && ok || bad "--passes dce differs from --passes=dce"; }
run "hilo-opt -o F" 0 "$opt" "$hlo" --passes=dce -o "$T/o1" && no_out "hilo-opt -o F"
run "hilo-opt -oF" 0 "$opt" "$hlo" --passes=dce "-o$T/o2" && no_out "hilo-opt -oF"
cmp -s "$T/want" "$T/o1" && cmp -s "$T/want" "$T/o2" && ok || bad "hilo-opt -o F / -oF output differs from stdout"
cp "$hlo" "$T/-dash.hlo"
(cd "$T" && "$opt" --passes=dce -- -dash.hlo >"$T/out" 2>"$T/err") && cmp -s "$T/want" "$T/out" && ok ||
	{ bad "hilo-opt -- -dash.hlo"; cat "$T/err"; }
run "hilo-opt two inputs" 2 "$opt" "$hlo" "$hlo" &&
	err1 "hilo-opt two inputs" "hilo-opt: error: more than one input file ('$hlo' and '$hlo')"
run "hilo-opt --passes at the end" 2 "$opt" "$hlo" --passes &&
	err1 "hilo-opt --passes" "hilo-opt: error: option '--passes' needs a value"
run "hilo-opt -o at the end" 2 "$opt" "$hlo" -o && err1 "hilo-opt -o" "hilo-opt: error: option '-o' needs a value"
run "hilo-opt --verify=1" 2 "$opt" "$hlo" --verify=1 && err1 "hilo-opt --verify=1" "hilo-opt: error: unknown option '--verify' (did you mean '--verify-each'?)"

run=$build/hilo-run
run "hilo-run --seed=5" 0 "$run" "$hlo" --seed=5 && cp "$T/out" "$T/want"
run "hilo-run --seed 5" 0 "$run" --seed 5 "$hlo" && { cmp -s "$T/want" "$T/out" && ok || bad "hilo-run --seed 5 differs"; }
run "hilo-run -oF" 0 "$run" "$hlo" --seed=5 "-o$T/r1" && { cmp -s "$T/want" "$T/r1" && ok || bad "hilo-run -oF differs"; }
run "hilo-run -- F" 0 "$run" --seed=5 -- "$hlo" && { cmp -s "$T/want" "$T/out" && ok || bad "hilo-run -- differs"; }
run "hilo-run no module" 2 "$run" && err1 "hilo-run no module" "hilo-run: error: no module given"

pto_opt=$build/pto-opt
run "pto-opt --runtime=" 0 "$pto_opt" --runtime=host_build_graph "$pto" && cp "$T/out" "$T/want"
run "pto-opt --runtime X" 0 "$pto_opt" --runtime host_build_graph "$pto" "-o$T/p1" &&
	{ cmp -s "$T/want" "$T/p1" && ok || bad "pto-opt --runtime X -oF differs"; }

bench=$build/hilo-bench
"$opt" "$hlo" >"$T/printed.hlo" # the printer's own output prints back byte for byte
run "hilo-bench --tsv F" 0 "$bench" --min-time 0 --tsv "$T/b.tsv" "$T/printed.hlo" &&
	{ [ "$(cut -f1 "$T/b.tsv")" = printed.hlo ] && ok || bad "hilo-bench --tsv F wrote no row"; }
run "hilo-bench no file" 2 "$bench" --min-time=1 && err1 "hilo-bench no file" "hilo-bench: error: no input file given"

# numeric values
num() { # TOOL ARG WANT-MESSAGE
	t=$1 a=$2 m=$3
	if run "$t $a" 2 "$build/$t" "$a" "$hlo"; then err1 "$t $a" "$t: error: $m"; no_out "$t $a"; fi
}
num hilo-bench --min-time=abc "invalid value 'abc' for --min-time: expected a number from 0 to 3600"
num hilo-bench --min-time=-1 "invalid value '-1' for --min-time: expected a number from 0 to 3600"
num hilo-bench --min-time=nan "invalid value 'nan' for --min-time: expected a number from 0 to 3600"
num hilo-opt --eval-budget=x "invalid value 'x' for --eval-budget: expected an integer >= 1"
num hilo-opt --eval-budget=0 "invalid value '0' for --eval-budget: expected an integer >= 1"
num hilo-opt --depth=-3 "invalid value '-3' for --depth: expected an integer from 0 to 1000000"
num hilo-opt --height=2x "invalid value '2x' for --height: expected an integer from 0 to 1000000"
num hilo-opt --seed=+1 "invalid value '+1' for --seed: expected an integer >= 0"
num hilo-opt --seed=99999999999999999999 "invalid value '99999999999999999999' for --seed: expected an integer >= 0"
num hilo-opt --check-equivalence=0 "invalid value '0' for --check-equivalence: expected an integer from 1 to 1000"
num hilo-opt --check-equivalence=sometimes "invalid value 'sometimes' for --check-equivalence: expected N (1 to 1000), module or strict"
num hilo-run --seed=x "invalid value 'x' for --seed: expected an integer >= 0"
num hilo-run --budget=1e3 "invalid value '1e3' for --budget: expected an integer >= 1"
run "hilo-opt --seed=0x10" 0 "$opt" "$hlo" --passes=dce --check-equivalence --seed=0x10 && ok

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
