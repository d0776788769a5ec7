#!/bin/sh
# hilo-run --compare=OTHER [--rtol=R] [--atol=A] (issue 32 §5): two modules
# run on the same inputs, their outputs compared as XLA's run_hlo_module
# compares a test with its reference (|x - ref| <= atol + rtol*|ref|, NaN
# equal to NaN, an infinity only to itself, integers exactly, complex per
# component, tuples leaf by leaf). The expected lines are worked out by
# hand from the --input literals. Exit 0 agree, 4 differ, 1 bad input
# (signatures that differ), 2 usage.
# Usage: compare.sh BUILD_DIR SOURCE_DIR
set -u
B=$(cd "$1" && pwd) || exit 1
RUN=$B/hilo-run
OPT=$B/hilo-opt
. "$2/tests/cli/checks.sh"
checks_init compare

cd "$T" || exit 1
cat >add.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  ROOT r = f32[2,3] add(x, y)
}
HLO
sed 's/add(x, y)/add(y, x)/' add.hlo >add_yx.hlo
sed 's/add(x, y)/subtract(x, y)/' add.hlo >sub.hlo
echo 'f32[2,3] {{1, 2, 3}, {4, 5, 6}}' >x.txt
echo 'f32[2,3] {{0, 0.5, -1}, {0, 3, 0}}' >y.txt

# the same module, and an equal one (operands swapped), on files and on seeds
check equal 0 "$RUN" add.hlo --compare=add_yx.hlo --input=x.txt --input=y.txt
expect_out equal "output 0: f32[2,3] ok
compare: ok, 1 output within rtol=0.001, atol=0.001"
check equal_seeded 0 "$RUN" add.hlo --compare=add_yx.hlo --seed=7
expect_err equal_seeded "hilo-run: random inputs (seed 7): f32[2,3], f32[2,3]"
# OTHER as a binary proto: loaded as MODULE is
check to_proto 0 "$OPT" add_yx.hlo -o add_yx.pb
check equal_proto 0 "$RUN" add.hlo --compare=add_yx.pb --seed=2

# add against subtract: x+y vs x-y differs where y != 0, by 2|y|:
# [0,1] 2.5 vs 1.5, [0,2] 2 vs 4, [1,1] 8 vs 2 (the worst: abs 6, rel 6/2)
check differ 4 "$RUN" add.hlo --compare=sub.hlo --input=x.txt --input=y.txt
expect_out differ "output 0: f32[2,3] mismatch: 3 of 6 elements; worst [1,1]: 8 vs 2, abs error 6, rel error 3
compare: mismatch in 1 of 1 output (rtol=0.001, atol=0.001)"

# tolerances: x + 0.5 against x for x = {100, 200}: a difference of 0.5
cat >shift.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2] parameter(0)
  h = f32[] constant(0.5)
  b = f32[2] broadcast(h), dimensions={}
  ROOT r = f32[2] add(x, b)
}
HLO
cat >ident.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2] parameter(0)
  ROOT r = f32[2] copy(x)
}
HLO
echo 'f32[2] {100, 200}' >s.txt
# the defaults allow 0.001 + 0.001*|ref|: 0.101 and 0.201
check tol_default 4 "$RUN" shift.hlo --compare=ident.hlo --input=s.txt
expect_out tol_default "output 0: f32[2] mismatch: 2 of 2 elements; worst [0]: 100.5 vs 100, abs error 0.5, rel error 0.005
compare: mismatch in 1 of 1 output (rtol=0.001, atol=0.001)"
# rtol 0.01: 1.001 and 2.001 allowed: both pass; the largest difference is named
check tol_rtol 0 "$RUN" shift.hlo --compare=ident.hlo --input=s.txt --rtol=0.01
expect_out tol_rtol "output 0: f32[2] ok; largest difference [0]: 100.5 vs 100, abs error 0.5, rel error 0.005
compare: ok, 1 output within rtol=0.01, atol=0.001"
# rtol 0.004, atol 0: 0.4 allowed for 100 (fails), 0.8 for 200 (passes)
check tol_rel_half 4 "$RUN" shift.hlo --compare=ident.hlo --input=s.txt --rtol=0.004 --atol=0
expect_out tol_rel_half "output 0: f32[2] mismatch: 1 of 2 elements; worst [0]: 100.5 vs 100, abs error 0.5, rel error 0.005
compare: mismatch in 1 of 1 output (rtol=0.004, atol=0)"
# the bound is inclusive: atol 0.5 passes, 0.499 does not
check tol_atol 0 "$RUN" shift.hlo --compare=ident.hlo --input=s.txt --rtol=0 --atol=0.5
check tol_atol_under 4 "$RUN" shift.hlo --compare=ident.hlo --input=s.txt --rtol=0 --atol=0.499

# NaN equals NaN, an infinity only itself (whatever the tolerance)
cat >sign.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[3] parameter(0)
  c = f32[3] constant({1, -1, 1})
  ROOT r = f32[3] multiply(x, c)
}
HLO
sed 's/f32\[2\]/f32[3]/g' ident.hlo >ident3.hlo
echo 'f32[3] {nan, inf, 1}' >n.txt
check nan_equal 0 "$RUN" ident3.hlo --compare=ident3.hlo --input=n.txt
expect_out nan_equal "output 0: f32[3] ok
compare: ok, 1 output within rtol=0.001, atol=0.001"
check inf_sign 4 "$RUN" ident3.hlo --compare=sign.hlo --input=n.txt --atol=1e30
expect_out inf_sign "output 0: f32[3] mismatch: 1 of 3 elements; worst [1]: inf vs -inf, abs error inf, rel error inf
compare: mismatch in 1 of 1 output (rtol=0.001, atol=1e+30)"

# tuples leaf by leaf (the path in the index), complex per component,
# integers exactly: c + (0, 0.5i) at [1], i + 1 at [1]
cat >tup.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2] parameter(0)
  c = c64[2] parameter(1)
  i = s32[3] parameter(2)
  t = (c64[2], s32[3]) tuple(c, i)
  ROOT r = (f32[2], (c64[2], s32[3])) tuple(x, t)
}
HLO
cat >tup2.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2] parameter(0)
  c = c64[2] parameter(1)
  i = s32[3] parameter(2)
  one = s32[3] constant({0, 1, 0})
  j = s32[3] add(i, one)
  ci = c64[2] constant({(0, 0), (0, 0.5)})
  c2 = c64[2] add(c, ci)
  t = (c64[2], s32[3]) tuple(c2, j)
  ROOT r = (f32[2], (c64[2], s32[3])) tuple(x, t)
}
HLO
echo 'f32[2] {1, 2}' >a.txt
echo 'c64[2] {(1, 2), (3, 4)}' >b.txt
echo 's32[3] {5, 6, 7}' >c.txt
check tuple 4 "$RUN" tup.hlo --compare=tup2.hlo --input=a.txt --input=b.txt --input=c.txt
expect_out tuple "output 0: f32[2] ok
output 1: (c64[2], s32[3]) mismatch: 2 of 5 elements; worst {1}[1]: 6 vs 7, abs error 1, rel error 0.142857
compare: mismatch in 1 of 2 outputs (rtol=0.001, atol=0.001)"
# atol 1 lets the complex part through, never the integer
check tuple_atol 4 "$RUN" tup.hlo --compare=tup2.hlo --input=a.txt --input=b.txt --input=c.txt --atol=1
expect_out tuple_atol "output 0: f32[2] ok
output 1: (c64[2], s32[3]) mismatch: 1 of 5 elements; worst {1}[1]: 6 vs 7, abs error 1, rel error 0.142857
compare: mismatch in 1 of 2 outputs (rtol=0.001, atol=1)"
# the complex difference alone: (3, 4) vs (3, 4.5)
check complex 4 "$RUN" tup.hlo --compare=tup2.hlo --input=a.txt --input=b.txt --input=c.txt --atol=1 --rtol=0
sed 's/constant({0, 1, 0})/constant({0, 0, 0})/' tup2.hlo >tup3.hlo
check complex_only 4 "$RUN" tup.hlo --compare=tup3.hlo --input=a.txt --input=b.txt --input=c.txt
expect_out complex_only "output 0: f32[2] ok
output 1: (c64[2], s32[3]) mismatch: 1 of 5 elements; worst {0}[1]: (3, 4) vs (3, 4.5), abs error 0.5, rel error 0.111111
compare: mismatch in 1 of 2 outputs (rtol=0.001, atol=0.001)"

# signatures: the first parameter that differs is named, exit 1, nothing run
cat >add3.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  z = f32[2,3] parameter(2)
  ROOT r = f32[2,3] add(x, y)
}
HLO
check sig_count 1 "$RUN" add.hlo --compare=add3.hlo --seed=1
expect_err sig_count "add3.hlo: error: --compare: entry parameter 2 (%z) is only in add3.hlo (add.hlo has 2 parameters, add3.hlo 3)"
sed 's/y = f32\[2,3\]/y = f32[3,2]/; s/add(x, y)/add(x, x)/' add.hlo >add_t.hlo
check sig_shape 1 "$RUN" add.hlo --compare=add_t.hlo --seed=1
expect_err sig_shape "add_t.hlo: error: --compare: entry parameter 1 differs: f32[3,2] (%y) in add_t.hlo, f32[2,3] (%y) in add.hlo"
check sig_param0 1 "$RUN" ident.hlo --compare=sign.hlo
expect_err sig_param0 "sign.hlo: error: --compare: entry parameter 0 differs: f32[3] (%x) in sign.hlo, f32[2] (%x) in ident.hlo"
cat >tuple_root.hlo <<'HLO'
HloModule m

ENTRY main {
  x = f32[2] parameter(0)
  ROOT r = (f32[2]) tuple(x)
}
HLO
check sig_root 1 "$RUN" ident.hlo --compare=tuple_root.hlo
expect_err sig_root "tuple_root.hlo: error: --compare: the entry results differ: (f32[2]) in tuple_root.hlo, f32[2] in ident.hlo"
check other_missing 1 "$RUN" add.hlo --compare=missing.hlo
expect_err other_missing "missing.hlo: error:"

# usage
check rtol_alone 2 "$RUN" add.hlo --rtol=0.1
expect_err rtol_alone "hilo-run: error: --rtol only goes with --compare"
check atol_alone 2 "$RUN" add.hlo --atol=0.1
check bad_rtol 2 "$RUN" add.hlo --compare=add.hlo --rtol=-1
check bad_atol 2 "$RUN" add.hlo --compare=add.hlo --atol=x
check with_print 2 "$RUN" add.hlo --compare=add.hlo --print
check empty 2 "$RUN" add.hlo --compare=

checks_done
