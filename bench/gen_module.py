#!/usr/bin/env python3
"""Writes a synthetic HLO module of about N instructions (XLA default print
style, layouts and metadata on every instruction like real dumps), for the
scaling benchmark: gen_module.py N OUT.

The entry computation is a long data-flow chain over f32[64,128] values
(elementwise ops, broadcasts of scalar constants, reshapes and transposes,
slices padded back, calls to a small shared computation), every
instruction uses recent values so nothing is dead, and the root is a tuple
of the last values. Deterministic: same N, same bytes."""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_module.py N OUT")
    n = int(sys.argv[1])
    out = []
    w = out.append
    w("HloModule gen_%d, entry_computation_layout={(f32[64,128]{1,0}, f32[64,128]{1,0})->f32[64,128]{1,0}}\n\n" % n)
    w("%scale (x: f32[64,128], y: f32[64,128]) -> f32[64,128] {\n")
    w("  %x = f32[64,128]{1,0} parameter(0)\n")
    w("  %y = f32[64,128]{1,0} parameter(1)\n")
    w("  %m = f32[64,128]{1,0} multiply(%x, %y)\n")
    w("  ROOT %a = f32[64,128]{1,0} add(%m, %x)\n")
    w("}\n\n")
    w("ENTRY %main (p0: f32[64,128], p1: f32[64,128]) -> f32[64,128] {\n")
    w("  %p0 = f32[64,128]{1,0} parameter(0)\n")
    w("  %p1 = f32[64,128]{1,0} parameter(1)\n")
    a, b = "p0", "p1"
    k = 2
    layer = 0

    def md(op):
        return (', metadata={op_type="%s" op_name="jit(train_step)/layer_%d/%s" '
                'source_file="model.py" source_line=%d}' % (op, layer, op, 100 + layer % 50))

    S = "f32[64,128]{1,0}"
    while k < n - 1:
        layer += 1
        i = "%d" % k
        w("  %%add.%s = %s add(%%%s, %%%s)%s\n" % (i, S, a, b, md("add")))
        w("  %%c.%s = f32[] constant(0.5)\n" % i)
        w("  %%bc.%s = %s broadcast(%%c.%s), dimensions={}%s\n" % (i, S, i, md("broadcast_in_dim")))
        w("  %%mul.%s = %s multiply(%%add.%s, %%bc.%s)%s\n" % (i, S, i, i, md("mul")))
        w("  %%tr.%s = f32[128,64]{1,0} transpose(%%mul.%s), dimensions={1,0}%s\n" % (i, i, md("transpose")))
        w("  %%rs.%s = %s reshape(%%tr.%s)%s\n" % (i, S, i, md("reshape")))
        w("  %%sl.%s = f32[64,64]{1,0} slice(%%rs.%s), slice={[0:64], [0:64]}%s\n" % (i, i, md("slice")))
        w("  %%z.%s = f32[] constant(0)\n" % i)
        w("  %%pd.%s = %s pad(%%sl.%s, %%z.%s), padding=0_0x0_64%s\n" % (i, S, i, i, md("pad")))
        w("  %%cl.%s = %s call(%%pd.%s, %%%s), to_apply=%%scale%s\n" % (i, S, i, b, md("pjit")))
        w("  %%th.%s = %s tanh(%%cl.%s)%s\n" % (i, S, i, md("tanh")))
        a, b = "th.%s" % i, "add.%s" % i
        k += 11
    w("  ROOT %%root = %s add(%%%s, %%%s)\n" % (S, a, b))
    w("}\n\n")
    with open(sys.argv[2], "w") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
