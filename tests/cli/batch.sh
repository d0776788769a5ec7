#!/bin/sh
# hilo-opt --batch -j N --out-dir=D FILES...|DIR (issue 32 §5): each
# result in D under its input's name, byte for byte what -o writes; one bad
# module is a located error in its row and does not stop the others (exit
# 1); the JSON summary holds the table's counts; -j 1 and -j 4 agree; a
# folder operand; the verdict columns and exit 4 of a failed check; the
# refusals and usage errors.
# Usage: batch.sh BUILD_DIR SOURCE_DIR
set -u
B=$(cd "$1" && pwd) || exit 1
OPT=$B/hilo-opt
OPT_TEST=$B/hilo-opt-test # with the deliberately unsound test passes
. "$2/tests/cli/checks.sh"
checks_init batch
json() { # name python-expression-over-s (the parsed summary in file $J)
	if python3 -c "import json,sys; s=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$J"
	then ok; else bad "$1: $J fails: $2"; fi
}

cd "$T" || exit 1
# three modules: dce and cse change a and c; b is a binary proto
cat >a.hlo <<'HLO'
HloModule a

ENTRY main {
  x = f32[4] parameter(0)
  p = f32[4] add(x, x)
  q = f32[4] add(x, x)
  dead = f32[4] multiply(x, x)
  ROOT r = f32[4] multiply(p, q)
}
HLO
cat >b.hlo <<'HLO'
HloModule b

ENTRY main {
  x = f32[8] parameter(0)
  ROOT n = f32[8] negate(x)
}
HLO
cat >c.hlo <<'HLO'
HloModule c

ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  s = f32[2,3] subtract(x, y)
  t = f32[2,3] subtract(x, y)
  u = f32[2,3] exponential(y)
  ROOT m = f32[2,3] maximum(s, t)
}
HLO
# the bad one: an unknown opcode on line 5, column 19
printf 'HloModule bad\n\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT r = f32[4] frobnicate(x)\n}\n' >bad.hlo
"$OPT" b.hlo -o b.pb || bad "cannot write b.pb"
rm b.hlo
mkdir in && mv a.hlo b.pb c.hlo bad.hlo in/ || exit 1
P=dce,cse

# what plain hilo-opt writes for each
mkdir want
for f in a.hlo b.pb c.hlo; do
	"$OPT" "in/$f" --passes=$P -o "want/$f" 2>"$T/err" || { bad "plain hilo-opt in/$f"; cat "$T/err"; }
done

# the batch over files, one of them bad: exit 1, the three others written
J=s1.json
check "batch -j 4" 1 "$OPT" --batch -j 4 --passes=$P --out-dir=o1 --batch-summary=$J \
	in/a.hlo in/bad.hlo in/b.pb in/c.hlo
cp out t1; cp err e1
for f in a.hlo b.pb c.hlo; do
	cmp -s "want/$f" "o1/$f" && ok || bad "o1/$f differs from what -o writes"
done
[ -e o1/bad.hlo ] && bad "the bad module got an output" || ok
# its row: error with the located message; its diagnostic on stderr
expect "bad row" t1 "in/bad.hlo"
grep "^in/bad.hlo " t1 | grep -qF "error: in/bad.hlo:5:19: unknown opcode 'frobnicate'" && ok ||
	{ bad "the bad row lacks its located error"; cat t1; }
expect "bad diagnostic" e1 "in/bad.hlo:5:19: error: unknown opcode 'frobnicate'"
grep "^in/a.hlo " t1 | grep -q ' ok$' && ok || bad "a.hlo's row is not ok"
expect "totals" t1 "3 ok, 1 error, 0 check-failed"
# the rows are in input order
[ "$(awk 'NR > 1 && $1 != "total" { print $1 }' t1 | tr '\n' ' ')" = "in/a.hlo in/bad.hlo in/b.pb in/c.hlo " ] &&
	ok || { bad "rows not in input order"; cat t1; }

# the JSON parses; its counts are the table's, and --stats's of a plain run
python3 -m json.tool $J >json.out 2>&1 && ok || { bad "$J does not parse"; cat json.out; }
json "json rows" "[m['input'] for m in s['modules']] == ['in/a.hlo','in/bad.hlo','in/b.pb','in/c.hlo']"
json "json bad" "s['modules'][1]['status'] == 'error' and s['modules'][1]['exit_status'] == 1 and s['modules'][1]['message'].startswith('in/bad.hlo:5:19: ') and s['modules'][1]['output'] is None"
json "json totals" "s['totals']['ok'] == 3 and s['totals']['errors'] == 1 and s['totals']['exit_status'] == 1 and s['totals']['instructions_before'] == sum(m['instructions_before'] or 0 for m in s['modules']) and s['totals']['rewrites'] == sum(m['rewrites'] or 0 for m in s['modules'])"
for f in a.hlo b.pb c.hlo; do
	"$OPT" "in/$f" --passes=$P --stats -o st.out 2>st.err
	set -- $(awk '$1 == "total" { print $3, $4, $5 }' st.err)
	json "json $f counts = --stats" "[(m['instructions_before'], m['instructions_after'], m['rewrites']) for m in s['modules'] if m['input'] == 'in/$f'] == [($1, $2, $3)]"
	grep "^in/$f " t1 | awk -v b=$1 -v a=$2 -v r=$3 '{ exit !($2 == b && $3 == a && $4 == r) }' && ok ||
		{ bad "the table's $f counts are not --stats's ($*)"; cat t1; }
done
[ "$(python3 -c "import json; s=json.load(open('$J')); print(s['modules'][0]['rewrites'])")" -gt 0 ] && ok ||
	bad "a.hlo made no rewrite: the test proves nothing"

# -j 1: the same outputs and the same summary, times apart
J=s2.json
check "batch -j 1" 1 "$OPT" --batch -j 1 --passes=$P --out-dir=o2 --batch-summary=$J \
	in/a.hlo in/bad.hlo in/b.pb in/c.hlo
cp out t2; cp err e2
diff -r o1 o2 >d.out && ok || { bad "-j 1 and -j 4 outputs differ"; cat d.out; }
untimed() { python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
for m in s['modules']:
    m.pop('seconds')
    m['output'] = m['output'] and m['output'].split('/')[-1]
for k in ('module_seconds', 'wall_seconds'): s['totals'].pop(k)
print(json.dumps(s, sort_keys=True))" "$1"; }
[ "$(untimed s1.json)" = "$(untimed s2.json)" ] && ok || bad "-j 1 and -j 4 JSON summaries differ"
# the table without its time column and the totals' threads and wall time
cut_times() { sed 's/ *[0-9][0-9]*\.[0-9][0-9]*  / /; s/; [0-9]* threads*, wall .*//' "$1"; }
[ "$(cut_times t1)" = "$(cut_times t2)" ] && ok || { bad "-j 1 and -j 4 tables differ"; cut_times t1; cut_times t2; }
cmp -s e1 e2 && ok || { bad "-j 1 and -j 4 diagnostics differ"; cat e1 e2; }

# a folder operand: its modules, sorted, and nothing else
cp in/a.hlo in/notes.txt
J=s3.json
check "batch DIR" 1 "$OPT" --batch -j 3 --passes=$P --out-dir=o3 --batch-summary=$J in
json "DIR rows" "[m['input'] for m in s['modules']] == ['in/a.hlo','in/b.pb','in/bad.hlo','in/c.hlo']"
diff -r o1 o3 >d.out && ok || { bad "the DIR batch's outputs differ"; cat d.out; }
rm in/notes.txt
# two bad modules: each one's diagnostics whole, in input order, though the
# first (30000 instructions, its error on the last line) finishes last
awk 'BEGIN { print "HloModule big\n\nENTRY main {\n  v0 = f32[4] parameter(0)";
	for (k = 1; k <= 30000; k++) printf "  v%d = f32[4] negate(v%d)\n", k, k - 1;
	print "  ROOT r = f32[4] frobnicate(v30000)\n}" }' >big.hlo
printf 'HloModule bad2\n\nENTRY main {\n  ROOT r = f32[4] parameter(0\n}\n' >bad2.hlo
check "two bad" 1 "$OPT" --batch -j 4 --passes=$P --out-dir=o4 big.hlo in/a.hlo bad2.hlo
[ "$(grep 'error:' err | cut -d: -f1 | tr '\n' ' ')" = "big.hlo bad2.hlo " ] && ok ||
	{ bad "diagnostics not in input order"; cat err; }

# all good: exit 0
check "all ok" 0 "$OPT" --batch --passes=$P --out-dir=o5 in/a.hlo in/c.hlo
expect "all ok totals" out "2 ok, 0 errors, 0 check-failed"

# --check-equivalence: the verdict columns; a wrong pass fails, exit 4
J=s6.json
check "check ok" 0 "$OPT" --batch -j 2 --passes=$P --check-equivalence --out-dir=o6 \
	--batch-summary=$J in/a.hlo in/c.hlo
expect "check header" out "proved  tested skipped  failed"
json "check verdicts" "s['totals']['verdicts']['failed'] == 0 and s['totals']['verdicts']['proved'] + s['totals']['verdicts']['tested'] + s['totals']['verdicts']['skipped'] > 0"
J=s7.json
check "check failed" 4 "$OPT_TEST" --batch -j 2 --passes=test-swap-operands --check-equivalence \
	--out-dir=o7 --batch-summary=$J in/a.hlo in/c.hlo in/bad.hlo
grep "^in/c.hlo " out | grep -F "check-failed: in/c.hlo:" | grep -qF ": equivalence check failed: pass 'test-swap-operands'" &&
	ok || { bad "c.hlo's row does not say its check failed"; cat out; }
json "check failed json" "s['modules'][1]['status'] == 'check-failed' and s['modules'][1]['exit_status'] == 4 and s['modules'][1]['verdicts']['failed'] > 0 and s['totals']['exit_status'] == 4 and s['modules'][2]['exit_status'] == 1"
[ -e o7/c.hlo ] && bad "a module whose check failed got an output" || ok
check "check =module" 4 "$OPT_TEST" --batch -j 2 --passes=test-swap-operands --check-equivalence=module \
	--out-dir=o8 in/c.hlo
grep "^in/c.hlo " out | grep -qF "check-failed: in/c.hlo: equivalence check failed:" && ok ||
	{ bad "=module: c.hlo's row does not say its check failed"; cat out; }

# refused before anything runs
mkdir x y && cp in/a.hlo x/ && cp in/a.hlo y/
check "same name" 2 "$OPT" --batch --passes=$P --out-dir=o9 x/a.hlo y/a.hlo
expect "same name" err "hilo-opt: error: --batch: inputs 'x/a.hlo' and 'y/a.hlo' have the same name"
[ -e o9 ] && bad "refused batch created its --out-dir" || ok
cp x/a.hlo x/keep.hlo
check "out-dir = input folder" 2 "$OPT" --batch --passes=$P --out-dir=x x/a.hlo
expect "out-dir = input folder" err "--out-dir 'x' holds input 'x/a.hlo'"
check "out-dir = input folder, spelled ./x/" 2 "$OPT" --batch --passes=$P --out-dir=./x/ x
cmp -s x/a.hlo in/a.hlo && ok || bad "an input was overwritten"
check "out-dir parent missing" 1 "$OPT" --batch --passes=$P --out-dir=no/such in/a.hlo
expect "out-dir parent missing" err "cannot create the --out-dir directory: 'no' does not exist"
mkdir empty
check "empty folder" 1 "$OPT" --batch --passes=$P --out-dir=o10 empty
expect "empty folder" err "--batch: no modules"

# usage errors
check "no inputs" 2 "$OPT" --batch --passes=$P --out-dir=o11
expect "no inputs" err "--batch needs input files or folders"
check "no out-dir" 2 "$OPT" --batch --passes=$P in/a.hlo
expect "no out-dir" err "--batch needs --out-dir=DIR"
check "-o" 2 "$OPT" --batch --passes=$P --out-dir=o11 -o out.hlo in/a.hlo
expect "-o" err "hilo-opt: error: -o does not go with --batch"
check "--report" 2 "$OPT" --batch --passes=$P --out-dir=o11 --report=r.html in/a.hlo
check "-j 0" 2 "$OPT" --batch -j 0 --passes=$P --out-dir=o11 in/a.hlo
expect "-j 0" err "invalid value '0' for -j"
check "-j abc" 2 "$OPT" --batch -j abc --passes=$P --out-dir=o11 in/a.hlo
check "--jobs=" 2 "$OPT" --batch --jobs= --passes=$P --out-dir=o11 in/a.hlo
check "-j without --batch" 2 "$OPT" -j 2 --passes=$P in/a.hlo -o out.hlo
expect "-j without --batch" err "-j only goes with --batch"
check "--out-dir without --batch" 2 "$OPT" --out-dir=o11 in/a.hlo
check "stdin" 2 "$OPT" --batch --passes=$P --out-dir=o11 - <in/a.hlo
expect "stdin" err "not standard input"
check "--batch-summary without --batch" 2 "$OPT" --batch-summary=s.json in/a.hlo
[ -e o11 ] && bad "a usage error created --out-dir" || ok

checks_done
