#!/bin/sh
# hilo-opt --dump-after-each=DIR [--dump-pass-re=REGEX] (issue 32 §5): the
# module after each pass that runs, as DIR/NNNN.after_PASS.hlo (NNNN the
# pass's 0-based number among all passes run), as XLA's --xla_dump_to with
# --xla_dump_hlo_pass_re; each file parses back; DIR created first; a bad
# REGEX is a usage error.
# Usage: dump.sh BUILD_DIR SOURCE_DIR
set -u
B=$(cd "$1" && pwd) || exit 1
OPT=$B/hilo-opt
. "$2/tests/cli/checks.sh"
checks_init dump
files() { # name dir expected-listing (one name a line, sorted)
	got=$(ls "$2" 2>&1)
	[ "$got" = "$3" ] && ok || { bad "$1: $2 holds '$got', want '$3'"; }
}

cd "$T" || exit 1
# dce removes `dead`, cse then merges b into a
cat >m.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[4] parameter(0)
  a = f32[4] add(x, x)
  b = f32[4] add(x, x)
  dead = f32[4] multiply(x, x)
  ROOT r = f32[4] multiply(a, b)
}
HLO

# every pass: DIR created, one file a pass, numbered in run order
check all 0 "$OPT" m.hlo --passes=dce,cse --dump-after-each=d1 -o out.hlo
files all d1 "0000.after_dce.hlo
0001.after_cse.hlo"
# each holds the module as that pass left it
grep -q dead d1/0000.after_dce.hlo && bad "the dce dump still holds 'dead'" || ok
[ "$(grep -c ' add(' d1/0000.after_dce.hlo)" = 2 ] && ok || bad "the dce dump has not both adds"
[ "$(grep -c ' add(' d1/0001.after_cse.hlo)" = 1 ] && ok || bad "the cse dump has not one add"
# the last dump is the module written
cmp -s d1/0001.after_cse.hlo out.hlo && ok || bad "the last dump differs from -o's module"
# each dumped file parses back
for f in d1/*.hlo; do
	check "parse $f" 0 "$OPT" "$f" -o back.hlo
	cmp -s "$f" back.hlo && ok || bad "$f does not print back unchanged"
done

# --dump-pass-re: only the matching passes, numbered among all passes run
check re_cse 0 "$OPT" m.hlo --passes=dce,cse --dump-after-each=d2 --dump-pass-re=cse -o out.hlo
files re_cse d2 "0001.after_cse.hlo"
check re_cse_parse 0 "$OPT" d2/0001.after_cse.hlo -o back.hlo
check re_anchored 0 "$OPT" m.hlo --passes=dce,cse,dce --dump-after-each=d3 --dump-pass-re='^d' -o out.hlo
files re_anchored d3 "0000.after_dce.hlo
0002.after_dce.hlo"
# an XLA alias matches too (constant_folding is constant-folding's)
check re_alias 0 "$OPT" m.hlo --passes=constant-folding,dce --dump-after-each=d4 \
	--dump-pass-re='^constant_folding$' -o out.hlo
files re_alias d4 "0000.after_constant-folding.hlo"
# a pass the regex does not match still counts: nothing matched, nothing written
check re_none 0 "$OPT" m.hlo --passes=dce --dump-after-each=d5 --dump-pass-re=zzz -o out.hlo
files re_none d5 ""

# --split-input-file: the numbers go on over the modules (no file twice)
{ cat m.hlo; echo '// -----'; cat m.hlo; } >two.hlo
check split 0 "$OPT" two.hlo --split-input-file --passes=dce,cse --dump-after-each=d6 -o out.hlo
files split d6 "0000.after_dce.hlo
0001.after_cse.hlo
0002.after_dce.hlo
0003.after_cse.hlo"

# an existing folder is used; files in it are replaced
check existing 0 "$OPT" m.hlo --passes=dce --dump-after-each=d1 -o out.hlo
files existing d1 "0000.after_dce.hlo
0001.after_cse.hlo"

# usage errors (exit 2), before any folder is made
check bad_re 2 "$OPT" m.hlo --passes=dce --dump-after-each=d7 --dump-pass-re='(' -o out.hlo
expect_err bad_re "hilo-opt: error: invalid value '(' for --dump-pass-re:"
[ -e d7 ] && bad "a usage error created the dump folder" || ok
check re_alone 2 "$OPT" m.hlo --passes=dce --dump-pass-re=cse -o out.hlo
expect_err re_alone "hilo-opt: error: --dump-pass-re only goes with --dump-after-each"
check no_passes 2 "$OPT" m.hlo --dump-after-each=d8 -o out.hlo
expect_err no_passes "--dump-after-each writes the module after each pass: give --passes or --pipeline"
check empty_dir 2 "$OPT" m.hlo --passes=dce --dump-after-each= -o out.hlo

# a folder that cannot be made: exit 1 before any pass runs (no -o written)
rm -f out.hlo
check no_parent 1 "$OPT" m.hlo --passes=dce --dump-after-each=nope/d -o out.hlo
expect_err no_parent "nope/d: error: cannot create the --dump-after-each directory: 'nope' does not exist"
[ -e out.hlo ] && bad "-o written after the dump folder failed" || ok
echo x >afile
check file_in_way 1 "$OPT" m.hlo --passes=dce --dump-after-each=afile -o out.hlo
expect_err file_in_way "afile: error: --dump-after-each is not a directory"

# a dump that cannot be written ends the run: exit 1, the pass named in
# the file's error, nothing written to -o (here a folder is in the way)
mkdir -p d9/0000.after_dce.hlo
rm -f out.hlo
check write_fails 1 "$OPT" m.hlo --passes=dce,cse --dump-after-each=d9 -o out.hlo
expect_err write_fails "d9/0000.after_dce.hlo: error:"
[ -e out.hlo ] && bad "-o written after a dump failed" || ok
[ -e d9/0001.after_cse.hlo ] && bad "the run went on after a dump failed" || ok

checks_done
