"""Reductions and friends: reduce (several reducers, variadic argmax),
reduce-window (sizes, strides, padding, dilation), dot (batch and
contracting dims, every precision config, mixed-width results), sort
(stability, total order, several keys) and map.

XLA leaves the order in which a reduction combines its elements
unspecified (its CPU backend vectorizes reductions), so the float sums of
reduce, reduce-window and dot use inputs whose partial sums are exact
(small integers: exactly representable, no rounding in any order), plus
the special values whose result does not depend on order (NaN, +-inf).
Maximum and minimum, integer arithmetic and and/or are order-free and use
every value."""
import numpy as np

import values as V
from cases import Case
from gen_elementwise import XLA_TYPES
from gen_shape import sh


def reducer(name, t, op):
    return ("%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT r = %s[] %s(a, b)\n}"
            % (name, t, t, t, op))


def reducers(t):
    k = V.kind(t)
    out = []
    if k == "pred":
        return [("and", "and"), ("or", "or")]
    if t != "f8e8m0fnu":  # sums of powers of two are rarely powers of two
        out.append(("add", "add"))
    if k != "c":
        out += [("max", "maximum"), ("min", "minimum")]
    if k in ("s", "u"):
        out += [("mul", "multiply"), ("xor", "xor")]
    return out


def order_free_values(t, n, rng, op):
    """Inputs for a reduction with op whose result XLA computes in any
    order: exact small integers and order-insensitive specials for float
    sums, everything else for the rest."""
    k = V.kind(t)
    if k == "f" and op == "add" and V.bits(t) <= 8:
        # 8 bits and less: a few +1 and -1 among zeros, so that every
        # partial sum (|s| <= 6, or 2 for f4e2m1fn) is exact in any order
        lim = 2 if V.bits(t) < 8 else 6
        x = np.zeros(n)
        pos = rng.permutation(n)
        x[pos[:lim]] = 1
        x[pos[lim:2 * lim]] = -1
        return x.astype(V.dtype(t))
    if k == "f" and op == "add":
        x = V.exact_floats(t, n, rng, -4, 4)
        sp = np.array([np.inf, np.nan, -np.inf, 0.0, -0.0]).astype(V.dtype(t))
        pos = rng.integers(0, n, size=max(1, n // 40))
        x[pos] = sp[rng.integers(0, len(sp), size=len(pos))]
        return x
    if k == "c" and op == "add":
        re = V.exact_floats("f64", n, rng, -4, 4)
        im = V.exact_floats("f64", n, rng, -4, 4)
        return (re + 1j * im).astype(V.dtype(t))
    return V.values(t, n, rng)


def init_value(t, op, rng):
    k = V.kind(t)
    if op == "add":
        return np.array(0).astype(V.dtype(t)) if k != "pred" else np.array(False)
    if op in ("mul",):
        return np.array(1).astype(V.dtype(t))
    if op == "max" and k == "f":
        return np.array(-np.inf if t not in ("f8e4m3fn", "f8e4m3fnuz", "f8e4m3b11fnuz", "f8e5m2fnuz", "f4e2m1fn", "f8e8m0fnu") else 0.0).astype(V.dtype(t))
    return V.values(t, 1, rng).reshape(())


def reduce_cases(t, rng):
    out = []
    for rname, op in reducers(t):
        cn = "red_%s_%s" % (rname, t)
        comps = {cn: reducer(cn, t, op)}
        for dims, rdims in [((4, 6, 5), (1,)), ((4, 6, 5), (0, 2)), ((64,), (0,)),
                            ((4, 6, 5), (0, 1, 2)), ((3, 40), (1,))]:
            n = int(np.prod(dims))
            x = order_free_values(t, n, rng, rname).reshape(dims)
            iv = init_value(t, rname, rng)
            od = tuple(d for i, d in enumerate(dims) if i not in rdims)
            line = "$r = %s reduce($p0, $p1), dimensions={%s}, to_apply=%s" % (
                sh(t, od), ",".join(map(str, rdims)), cn)
            out.append(Case("reduce", t, "%s over %s of %s" % (rname, rdims, dims),
                            [(sh(t, dims), x), (sh(t, ()), iv)], [line], [("r", sh(t, od))],
                            "nan", comps))
    return out


ARGMAX = """argmax_%(t)s {
  av = %(t)s[] parameter(0)
  ai = s32[] parameter(1)
  bv = %(t)s[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT%(ty)s
  eq = pred[] compare(av, bv), direction=EQ%(ty)s
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  pick = pred[] or(gt, tie)
  v = %(t)s[] select(pick, av, bv)
  i = s32[] select(pick, ai, bi)
  ROOT r = (%(t)s[], s32[]) tuple(v, i)
}"""


def one_nan(x, t):
    """x with every NaN of a type narrower than f32 replaced by one NaN:
    XLA CPU widens those keys to f32 for the comparator, rewriting NaN
    payloads and signs (X7), so their total order among NaNs is its own."""
    if V.kind(t) != "f" or t in ("f32", "f64"):
        return x
    with np.errstate(invalid="ignore"):
        isn = np.isnan(x.astype(np.float64))
    if isn.any():
        x = x.copy()
        x[isn] = np.array(np.nan).astype(V.dtype(t))
    return x


def argmax_cases(t, rng):
    """A variadic reduce (value, index) whose reducer is order-free: the
    largest value under total order, the smallest index on ties."""
    ty = ", type=TOTALORDER" if V.kind(t) == "f" else ""
    cn = "argmax_%s" % t
    comps = {cn: ARGMAX % {"t": t, "ty": ty}}
    x = V.values(t, 48, rng).reshape(6, 8)
    if V.bits(t) <= 8:
        x = V.values(t, 6 * 8, rng).reshape(6, 8)
        x[:, 4] = x[:, 1]  # ties
    x = one_nan(x, t)
    idx = np.tile(np.arange(8, dtype=np.int32), (6, 1))
    lines = ["$r = (%s, s32[6]) reduce($p0, $p1, $p2, $p3), dimensions={1}, to_apply=%s"
             % (sh(t, (6,)), cn),
             "$v = %s get-tuple-element($r), index=0" % sh(t, (6,)),
             "$i = s32[6] get-tuple-element($r), index=1"]
    iv = V.values(t, 1, rng).reshape(())
    return [Case("reduce", t, "variadic argmax (value, index)",
                 [(sh(t, (6, 8)), x), ("s32[6,8]", idx), (sh(t, ()), iv), ("s32[]", np.int32(0))],
                 lines, [("v", sh(t, (6,))), ("i", "s32[6]")], "exact", comps)]


WINDOWS = [
    # (input dims, window text, output dims)
    ((6, 7), "size=2x3", (5, 5)),
    ((6, 7), "size=2x2 stride=2x2", (3, 3)),
    ((6, 7), "size=3x3 stride=2x1 pad=1_1x0_2", (3, 7)),
    ((6, 7), "size=2x2 lhs_dilate=2x1", (10, 6)),
    ((6, 7), "size=2x2 rhs_dilate=2x3", (4, 4)),
    ((6, 7), "size=1x3 stride=1x3 pad=0_0x-1_0", (6, 2)),
    ((9,), "size=4 stride=3 pad=2_2", (4,)),
]


def reduce_window_cases(t, rng):
    out = []
    for rname, op in reducers(t):
        cn = "red_%s_%s" % (rname, t)
        comps = {cn: reducer(cn, t, op)}
        for dims, win, od in WINDOWS:
            n = int(np.prod(dims))
            x = order_free_values(t, n, rng, rname).reshape(dims)
            iv = init_value(t, rname, rng)
            line = "$r = %s reduce-window($p0, $p1), window={%s}, to_apply=%s" % (sh(t, od), win, cn)
            out.append(Case("reduce-window", t, "%s %s" % (rname, win),
                            [(sh(t, dims), x), (sh(t, ()), iv)], [line], [("r", sh(t, od))],
                            "nan", comps))
    return out


DOTS = [
    # lhs dims, rhs dims, dnums, out dims
    ((3, 4), (4, 5), "lhs_contracting_dims={1}, rhs_contracting_dims={0}", (3, 5)),
    ((2, 3, 4), (2, 4, 5), "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
     "rhs_contracting_dims={1}", (2, 3, 5)),
    ((4,), (4,), "lhs_contracting_dims={0}, rhs_contracting_dims={0}", ()),
    ((3, 4), (5, 4), "lhs_contracting_dims={1}, rhs_contracting_dims={1}", (3, 5)),
    ((3, 2, 4), (2, 4, 6), "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}", (3, 6)),
    ((3, 4), (2,), "lhs_contracting_dims={}, rhs_contracting_dims={}", (3, 4, 2)),
]
PRECISION = ["", ", operand_precision={default,default}", ", operand_precision={high,high}",
             ", operand_precision={highest,highest}"]


def dot_cases(t, rng, out_types):
    out = []
    k = V.kind(t)
    for ld, rd, dn, od in DOTS:
        for ot in out_types:
            for pc in PRECISION if t == "f32" else PRECISION[:1]:
                def val(dims):
                    n = int(np.prod(dims)) if dims else 1
                    if k == "f":
                        x = V.exact_floats(t, n, rng, -3, 3)
                        if rng.integers(0, 3) == 0:
                            x[rng.integers(0, n)] = np.array(np.nan).astype(V.dtype(t))
                        return x.reshape(dims)
                    if k == "c":
                        re = V.exact_floats("f64", n, rng, -3, 3)
                        im = V.exact_floats("f64", n, rng, -3, 3)
                        return (re + 1j * im).astype(V.dtype(t)).reshape(dims)
                    return V.values(t, n, rng).reshape(dims)
                a, b = val(ld), val(rd)
                line = "$r = %s dot($p0, $p1), %s%s" % (sh(ot, od), dn, pc)
                out.append(Case("dot", t, "%s -> %s%s" % (dn.split(",")[0], ot, pc),
                                [(sh(t, ld), a), (sh(t, rd), b)], [line], [("r", sh(ot, od))],
                                "nan"))
    return out


def sort_comp(name, ts, direction, total):
    params = "\n".join("  p%d = %s[] parameter(%d)" % (j, ts[j // 2], j) for j in range(2 * len(ts)))
    ty = ", type=TOTALORDER" if total else ""
    return "%s {\n%s\n  ROOT r = pred[] compare(p0, p1), direction=%s%s\n}" % (
        name, params, direction, ty)


def sort_cases(t, rng):
    out = []
    k = V.kind(t)
    if k == "c" or t in ("s2", "u2"):  # XLA CPU: "Inputs must have the same shape" for s2/u2
        return out
    for direction in ["LT", "GT"]:
        for total in ([False, True] if k == "f" else [False]):
            for stable in [True, False]:
                if not stable and not (k != "f" or total):
                    continue  # an unstable sort with a NaN under a partial order: unspecified
                if t == "f8e8m0fnu" and not total:
                    continue  # e8m0 has no zero to stand in for its NaN (and 2^-127 flushes)
                cn = "cmp_%s_%s_%s" % (t, direction, "tot" if total else "def")
                x = V.values(t, 40, rng).reshape(4, 10)
                # XLA CPU's comparator reads f32/f64/bf16 denormals as zeros
                # (its flush-to-zero mode), so keys that are denormal sort
                # among the zeros there: the keys are kept normal
                from cases import flush_denormals
                # (a total order compares f32/f64 bits, which keeps them;
                # bf16 keys are widened to f32 first, which flushes)
                if not total or t == "bf16":
                    x = flush_denormals(x)
                x = one_nan(x, t)
                if k == "f" and not total:
                    # IEEE compare is not a strict weak order with NaNs:
                    # XLA leaves such a sort's result unspecified
                    with np.errstate(invalid="ignore"):
                        x = np.where(np.isnan(x.astype(np.float64)), np.array(0).astype(V.dtype(t)), x)
                    if V.bits(t) > 8:
                        x = np.where(x == 0, np.array(0).astype(V.dtype(t)), x)
                payload = np.tile(np.arange(10, dtype=np.int32), (4, 1))
                if stable:
                    cn2 = cn + "_kv"
                    comps = {cn2: sort_comp(cn2, [t, "s32"], direction, total)}
                    lines = ["$s = (%s, s32[4,10]) sort($p0, $p1), dimensions={1}, is_stable=true, "
                             "to_apply=%s" % (sh(t, (4, 10)), cn2),
                             "$k = %s get-tuple-element($s), index=0" % sh(t, (4, 10)),
                             "$v = s32[4,10] get-tuple-element($s), index=1"]
                    out.append(Case("sort", t, "%s%s stable, with payload" % (
                        direction, " TOTALORDER" if total else ""),
                        [(sh(t, (4, 10)), x), ("s32[4,10]", payload)], lines,
                        [("k", sh(t, (4, 10))), ("v", "s32[4,10]")], "exact", comps))
                else:
                    comps = {cn: sort_comp(cn, [t], direction, total)}
                    if k in ("s", "u", "pred") or total:
                        # an unstable sort of distinct-enough keys: only the
                        # keys are compared (equal keys are equal bits, except
                        # -0/+0, which total order separates)
                        lines = ["$k = %s sort($p0), dimensions={0}, to_apply=%s" % (sh(t, (4, 10)), cn)]
                        out.append(Case("sort", t, "%s%s dim 0, keys only" % (
                            direction, " TOTALORDER" if total else ""),
                            [(sh(t, (4, 10)), x)], lines, [("k", sh(t, (4, 10)))], "exact", comps))
    return out


def map_cases(t, rng):
    k = V.kind(t)
    if k in ("c", "pred"):
        return []
    cn = "mapf_%s" % t
    comp = ("%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  m = %s[] maximum(a, b)\n"
            "  ROOT r = %s[] subtract(m, b)\n}" % (cn, t, t, t, t))
    x = V.values(t, 64, rng)
    y = V.values(t, 64, rng)
    return [Case("map", t, "max(a,b)-b", [(sh(t, (64,)), x), (sh(t, (64,)), y)],
                 ["$r = %s map($p0, $p1), dimensions={0}, to_apply=%s" % (sh(t, (64,)), cn)],
                 [("r", sh(t, (64,)))], "nan", {cn: comp})]


DOT_OUT = {"s8": ["s8", "s32"], "u8": ["u8", "u32"], "s32": ["s32"], "s64": ["s64"], "u32": ["u32"],
           "f16": ["f16", "f32"], "bf16": ["bf16", "f32"], "f32": ["f32"], "f64": ["f64"],
           "s16": ["s16"], "u64": ["u64"],  # complex dot: hilo refuses it (not implemented)
           "f8e4m3fn": ["f32"], "f8e5m2": ["f32"], "pred": ["pred"]}


def cases(seed):
    rng = np.random.default_rng(seed + 2)
    out = []
    for t in XLA_TYPES:
        out.extend(reduce_cases(t, rng))
        if t != "pred" and V.kind(t) != "c":
            out.extend(argmax_cases(t, rng))
        out.extend(reduce_window_cases(t, rng))
        if t in DOT_OUT:
            out.extend(dot_cases(t, rng, DOT_OUT[t]))
        out.extend(sort_cases(t, rng))
        out.extend(map_cases(t, rng))
    return out
