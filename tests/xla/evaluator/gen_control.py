"""Control flow and structure: while (a counted loop carrying a value and a
dynamic-update-slice of it), conditional (predicate and branch index,
indices out of range run the last branch), call, tuple /
get-tuple-element, opt-barrier, and the small multi-instruction chains
that feed one op's rounding into the next."""
import numpy as np

import values as V
from cases import Case
from gen_elementwise import XLA_TYPES
from gen_shape import sh

WHILE = """wcond_%(t)s {
  s = (s32[], %(t)s[8], %(t)s[4,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}

wbody_%(t)s {
  s = (s32[], %(t)s[8], %(t)s[4,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = %(t)s[8] get-tuple-element(s), index=1
  acc = %(t)s[4,8] get-tuple-element(s), index=2
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  v1 = %(t)s[8] %(op)s
  r = %(t)s[1,8] reshape(v1)
  z = s32[] constant(0)
  acc1 = %(t)s[4,8] dynamic-update-slice(acc, r, i, z)
  ROOT t = (s32[], %(t)s[8], %(t)s[4,8]) tuple(i1, v1, acc1)
}"""


def step(t):
    k = V.kind(t)
    if k == "pred":
        return "not(v)"
    if k in ("s", "u"):
        return "multiply(v, v)"
    return "multiply(v, v)" if V.bits(t) > 8 or k == "c" else "negate(v)"


def while_cases(t, rng):
    comps = {"wcond_" + t: "", "wbody_" + t: ""}
    text = WHILE % {"t": t, "op": step(t)}
    a, b = text.split("\n\n")
    comps = {"wcond_" + t: a, "wbody_" + t: b}
    v = V.values(t, 8, rng)
    acc = V.values(t, 32, rng).reshape(4, 8)
    st = "(s32[], %s, %s)" % (sh(t, (8,)), sh(t, (4, 8)))
    lines = ["$z = s32[] parameter(%s)" if False else "$t = %s tuple($p0, $p1, $p2)" % st,
             "$w = %s while($t), condition=wcond_%s, body=wbody_%s" % (st, t, t),
             "$i = s32[] get-tuple-element($w), index=0",
             "$v = %s get-tuple-element($w), index=1" % sh(t, (8,)),
             "$a = %s get-tuple-element($w), index=2" % sh(t, (4, 8))]
    out = []
    for start in (0, 2, 7, -3):
        out.append(Case("while", t, "counter from %d" % start,
                        [("s32[]", np.int32(start)), (sh(t, (8,)), v), (sh(t, (4, 8)), acc)], lines,
                        [("i", "s32[]"), ("v", sh(t, (8,))), ("a", sh(t, (4, 8)))], "nan", comps))
    return out


def branches(t, nb):
    out = {}
    k = V.kind(t)
    ops = ["copy(x)", "negate(x)" if k not in ("pred",) else "not(x)",
           "add(x, x)" if k != "pred" else "or(x, x)"]
    if k == "pred" or (k == "u"):
        ops[1] = "not(x)"
    if k == "f" and t == "f8e8m0fnu":
        ops[1] = "multiply(x, x)"
        ops[2] = "multiply(x, x)"
    for j in range(nb):
        name = "br%d_%s" % (j, t)
        out[name] = "%s {\n  x = %s[8] parameter(0)\n  ROOT r = %s[8] %s\n}" % (
            name, t, t, ops[j % len(ops)])
    return out


def conditional_cases(t, rng):
    out = []
    x = V.values(t, 8, rng)
    b2 = branches(t, 2)
    for pv in (False, True):
        out.append(Case("conditional", t, "pred %s" % pv,
                        [("pred[]", np.bool_(pv)), (sh(t, (8,)), x)],
                        ["$r = %s conditional($p0, $p1, $p1), true_computation=br0_%s, "
                         "false_computation=br1_%s" % (sh(t, (8,)), t, t)], [("r", sh(t, (8,)))],
                        "nan", b2))
    b3 = branches(t, 3)
    for idx in (0, 1, 2, 3, -1, 2**31 - 1):
        out.append(Case("conditional", t, "index %d of 3 branches" % idx,
                        [("s32[]", np.int32(idx)), (sh(t, (8,)), x)],
                        ["$r = %s conditional($p0, $p1, $p1, $p1), branch_computations={br0_%s, "
                         "br1_%s, br2_%s}" % (sh(t, (8,)), t, t, t)], [("r", sh(t, (8,)))],
                        "nan", b3))
    return out


def call_cases(t, rng):
    b = branches(t, 3)
    name = "br2_" + t
    x = V.values(t, 8, rng)
    y = V.values(t, 8, rng)
    s = sh(t, (8,))
    return [
        Case("call", t, "", [(s, x)], ["$r = %s call($p0), to_apply=%s" % (s, name)],
             [("r", s)], "nan", {name: b[name]}),
        Case("tuple", t, "tuple / get-tuple-element / opt-barrier", [(s, x), (s, y)],
             ["$t = (%s, %s) tuple($p0, $p1)" % (s, s),
              "$o = (%s, %s) opt-barrier($t)" % (s, s),
              "$a = %s get-tuple-element($o), index=1" % s,
              "$b = %s get-tuple-element($o), index=0" % s], [("a", s), ("b", s)], "exact"),
    ]


def cases(seed):
    rng = np.random.default_rng(seed + 3)
    out = []
    for t in XLA_TYPES:
        out.extend(while_cases(t, rng))
        out.extend(conditional_cases(t, rng))
        out.extend(call_cases(t, rng))
    return out
