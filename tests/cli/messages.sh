#!/bin/sh
# Messages and flags (issue 32 section 3): each case is the exact first line
# of stderr, the exit status, and no partial output left behind.
#   -o/--report/--remarks into a missing folder name the folder;
#   hilo-run --output-dir creates its folder (or says why not) first;
#   flags that would be silently ignored are usage errors (exit 2);
#   a damaged binary proto gets the proto reader's error, not "NUL byte";
#   an unknown pass gets "did you mean"; --extract=%name; single-dash long
#   flags as absl writes them; hilo-run --print's "output K:" lines.
# Usage: messages.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/hilo_messages.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
pass=0
fail=0
opt=$build/hilo-opt
run=$build/hilo-run
cp "$src/tests/eval/inputs/add_params.hlo" m.hlo
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# t NAME WANT_RC WANT_FIRST_STDERR_LINE CMD...: stdout in out, stderr in err
t() {
	name=$1 want=$2 line=$3; shift 3
	"$@" >out 2>err
	rc=$?
	got=$(head -n 1 err)
	if [ "$rc" -ne "$want" ]; then
		bad "$name: exit $rc, want $want"; sed 's/^/  | /' err
	elif [ "$got" != "$line" ]; then
		bad "$name: stderr '$got', want '$line'"
	else
		ok
	fi
}
gone() { if [ -e "$2" ]; then bad "$1: $2 was created"; else ok; fi; }

# ---- outputs into a folder that does not exist
t "-o missing folder" 1 "nodir/x.hlo: error: cannot write the output: directory 'nodir' does not exist" \
	"$opt" m.hlo -o nodir/x.hlo
t "-o missing nested folder" 1 "$T/a/b/x.hlo: error: cannot write the output: directory '$T/a/b' does not exist" \
	"$opt" m.hlo -o "$T/a/b/x.hlo"
t "-o under a file" 1 "m.hlo/x/y.hlo: error: cannot write the output: 'm.hlo' is not a directory" \
	"$opt" m.hlo -o m.hlo/x/y.hlo
t "--remarks missing folder" 1 "nodir/r.jsonl: error: cannot write the output: directory 'nodir' does not exist" \
	"$opt" m.hlo --passes=dce --remarks=nodir/r.jsonl -o o1.hlo
t "--report missing folder" 1 "nodir/r.html: error: cannot write the output: directory 'nodir' does not exist" \
	"$opt" m.hlo --passes=dce --report=nodir/r.html -o o2.hlo
gone "--report missing folder" o2.hlo
gone "missing folders" nodir

# ---- hilo-run --output-dir: made before anything is computed
t "--output-dir new" 0 "hilo-run: random inputs (seed 0): f32[2], s32[]" "$run" m.hlo --output-dir=new
[ -f new/output_0.npy ] && [ -f new/output_1.npy ] && ok || bad "--output-dir new: no .npy files"
t "--output-dir missing parent" 1 "nodir/sub: error: cannot create the --output-dir directory: 'nodir' does not exist" \
	"$run" m.hlo --output-dir=nodir/sub
[ -s out ] && bad "--output-dir missing parent: computed before failing" || ok
t "--output-dir a file" 1 "m.hlo: error: --output-dir is not a directory" "$run" m.hlo --output-dir=m.hlo
t "--output-dir under a file" 1 "m.hlo/x: error: cannot create the --output-dir directory: 'm.hlo' is not a directory" \
	"$run" m.hlo --output-dir=m.hlo/x
# a run that fails after making the folder takes it away again (it is empty)
t "--output-dir failed run" 1 "$T/m.hlo:4:3: error: evaluator: the inputs of main are over the evaluation budget of 1 element-ops; --budget=N raises it" \
	"$run" "$T/m.hlo" --output-dir=made --budget=1
gone "--output-dir failed run" made
t "hilo-run stdin budget" 1 "<stdin>:4:3: error: evaluator: the inputs of main are over the evaluation budget of 1 element-ops; --budget=N raises it" \
	sh -c '"$1" - --budget=1 <m.hlo' sh "$run"

# ---- flags that would be silently ignored, and empty pass names: exit 2
t "--around alone" 2 "hilo-opt: error: --around only goes with --emit=dot (it picks what the graph shows)" \
	"$opt" m.hlo --around=a -o u1.hlo
t "--depth alone" 2 "hilo-opt: error: --depth only goes with --around (and --emit=dot)" \
	"$opt" m.hlo --emit=dot --depth=1 -o u2.dot
t "--height alone" 2 "hilo-opt: error: --height only goes with --extract" "$opt" m.hlo --height=1 -o u3.hlo
t "--seed alone" 2 "hilo-opt: error: --seed only goes with --check-equivalence (or --report): nothing else evaluates the module" \
	"$opt" m.hlo --passes=dce --seed=3 -o u4.hlo
t "--eval-budget alone" 2 "hilo-opt: error: --eval-budget only goes with --check-equivalence (or --report): nothing else evaluates the module" \
	"$opt" m.hlo --eval-budget=9 -o u5.hlo
for f in u1.hlo u2.dot u3.hlo u4.hlo u5.hlo; do gone "ignored flag" $f; done
t "--around with --emit=dot" 0 "" "$opt" m.hlo --emit=dot --around=a --depth=1 -o g1.dot
t "--height with --extract" 0 "" "$opt" m.hlo --extract=a --height=0 -o g2.hlo
t "--seed with a check" 0 "equivalence: 0 rewrites: 0 proved, 0 tested (3 inputs), 0 skipped, 0 failed" "$opt" m.hlo --passes=dce --check-equivalence --seed=3 --eval-budget=99 -o g3.hlo
t "--passes=dce,,cse" 2 "hilo-opt: error: empty pass name in --passes 'dce,,cse'" "$opt" m.hlo --passes=dce,,cse -o u6.hlo
t "--passes=dce," 2 "hilo-opt: error: empty pass name in --passes 'dce,'" "$opt" m.hlo --passes=dce, -o u6.hlo
t "--passes=,dce" 2 "hilo-opt: error: empty pass name in --passes ',dce'" "$opt" m.hlo --passes=,dce -o u6.hlo
gone "empty pass name" u6.hlo
t "hilo-run --seed with --input" 2 "hilo-run: error: --seed only goes with generated inputs: --input gives every parameter" \
	"$run" m.hlo --seed=3 --input=m.hlo --input=m.hlo -o u9.txt
gone "hilo-run --seed with --input" u9.txt
t "--passes= runs none" 0 "" "$opt" m.hlo --passes= -o g4.hlo
t "pto-opt --passes=a," 2 "pto-opt: error: empty pass name in --passes 'verify-graph-boundary,'" \
	"$build/pto-opt" --passes=verify-graph-boundary, "$src/tests/pto/golden/step_a_derived_scalar.py" -o u7.py
gone "pto-opt empty pass name" u7.py

# ---- a binary proto cut short: the proto reader's error, in every tool
head -c 100 "$src/tests/proto/jax_scalars.pb" >cut.pb
t "hilo-opt cut proto" 1 "cut.pb: error: not a valid binary HloModuleProto: field length runs past the end of the data at byte 16" \
	"$opt" cut.pb -o c1.hlo
t "hilo-run cut proto" 1 "cut.pb: error: not a valid binary HloModuleProto: field length runs past the end of the data at byte 16" \
	"$run" cut.pb -o c2.txt
gone "cut proto" c1.hlo; gone "cut proto" c2.txt
# read as text on request: the text reader's error
t "--format=hlo cut proto" 1 "cut.pb:6:20: error: NUL byte in input (is this a binary file?)" "$opt" --format=hlo cut.pb

# ---- "did you mean", instruction names, single-dash long options
t "unknown pass" 2 "hilo-opt: error: unknown pass 'dcee' (did you mean 'dce'?)" "$opt" m.hlo --passes=dcee
t "unknown pass, far" 2 "hilo-opt: error: unknown pass 'xyz'" "$opt" m.hlo --passes=xyz
t "pto-opt unknown pass" 2 "pto-opt: error: unknown pass 'legalize-graph-boundry' (did you mean 'legalize-graph-boundary'?)" \
	"$build/pto-opt" --passes=legalize-graph-boundry "$src/tests/pto/golden/step_a_derived_scalar.py"
t "unknown option" 2 "hilo-opt: error: unknown option '--pases' (did you mean '--passes'?)" "$opt" m.hlo --pases=dce
t "hilo-run unknown option" 2 "hilo-run: error: unknown option '--seeds' (did you mean '--seed'?)" "$run" m.hlo --seeds=1
"$opt" m.hlo --extract=a -o want.hlo 2>err || bad "--extract=a: $(cat err)"
t "--extract=%a" 0 "" "$opt" m.hlo --extract=%a -o got.hlo
cmp -s want.hlo got.hlo && ok || bad "--extract=%a differs from --extract=a"
t "--around=%a" 0 "" "$opt" m.hlo --emit=dot --around=%a -o g5.dot
t "--extract unknown" 2 "hilo-opt: error: --extract: no instruction named 'aa' in m.hlo (did you mean 'a'?)" \
	"$opt" m.hlo --extract=aa -o u8.hlo
t "--around unknown" 2 "hilo-opt: error: --around: no instruction named 'nope' in m.hlo" \
	"$opt" m.hlo --emit=dot --around=nope -o u8.hlo
t "--around after --extract" 2 "hilo-opt: error: --around: no instruction named 'q' in m.hlo" \
	"$opt" m.hlo --extract=a --emit=dot --around=q -o u8.hlo
gone "unknown instruction" u8.hlo
"$opt" m.hlo --passes=dce,cse --verify-each -o want.hlo 2>err || bad "long options: $(cat err)"
t "-passes=dce,cse -verify-each" 0 "" "$opt" m.hlo -passes=dce,cse -verify-each -o got.hlo
cmp -s want.hlo got.hlo && ok || bad "-passes= differs from --passes="
t "-passes dce,cse" 0 "" "$opt" m.hlo -passes dce,cse -verify-each -o got.hlo
cmp -s want.hlo got.hlo && ok || bad "-passes V differs from --passes=V"
t "-oFILE stays -o" 0 "" "$opt" m.hlo -passes=dce,cse -verify-each -ogot2.hlo
cmp -s want.hlo got2.hlo && ok || bad "-oFILE differs"
t "--remarks -x.jsonl: a value" 0 "" "$opt" m.hlo --passes=dce --remarks -all -o g6.hlo
[ -f ./-all ] && ok || bad "--remarks -all: the value was read as an option"
t "single-dash unknown" 2 "hilo-opt: error: unknown option '-pases' (did you mean '--passes'?)" "$opt" m.hlo -pases=dce
t "single-dash ambiguous" 2 "hilo-run: error: '-output-dir=x' is ambiguous: write '--output-dir=x' for the option --output-dir, or '-o utput-dir=x' for -o" \
	"$run" m.hlo -output-dir=x
gone "single-dash ambiguous" x
t "hilo-run -seed=5" 0 "hilo-run: random inputs (seed 5): f32[2], s32[]" "$run" m.hlo -seed=5

# ---- hilo-run --print: "output K:" as without it; no inputs, no input line
t "hilo-run --print" 0 "hilo-run: random inputs (seed 0): f32[2], s32[]" "$run" m.hlo --print -o p.txt
[ "$(grep -c '^output [01]: ' p.txt)" = 2 ] && ok || bad "--print: lines without 'output K:' ($(cat p.txt))"
cat >noparam.hlo <<'HLO'
HloModule noparam

ENTRY main {
  ROOT c = f32[2] constant({1, 2})
}
HLO
t "no parameters" 0 "" "$run" noparam.hlo --print -o np.txt
[ ! -s err ] && ok || bad "no parameters: stderr not empty ($(cat err))"
[ "$(cat np.txt)" = "output 0: f32[2]{0} {1, 2}" ] && ok || bad "no parameters: output '$(cat np.txt)'"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
