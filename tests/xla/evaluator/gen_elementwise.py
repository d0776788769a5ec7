"""Elementwise cases: unary and binary arithmetic, bit ops, shifts, compare,
select, clamp, convert, bitcast-convert and reduce-precision, over every
element type each op takes, on seeded inputs full of special values."""
import numpy as np

import values as V
from cases import Case

N = 96          # elements per wide-type case
XLA_TYPES = [t for t in V.ALL if t not in ("f6e3m2fn", "f6e2m3fn")]
# f6e3m2fn / f6e2m3fn: XLA CPU 0.10.2 compiles no instruction of these types
# (not even copy: "Invalid XLA PrimitiveType"), so no case uses them.

NUMERIC = [t for t in V.ALL if t != "pred"]
SIGNEDISH = V.SINT + V.FLOATS
TRANSCENDENTAL = {"exponential", "exponential-minus-one", "log", "log-plus-one", "logistic",
                  "sine", "cosine", "tan", "tanh", "erf", "cbrt", "atan2", "rsqrt", "power"}
# the float functions whose precision XLA leaves to the backend (it
# documents no accuracy for them; XLA CPU uses its own polynomial
# approximations for exp, log, tanh and erf): compared within ULP units in
# the last place; every NaN/inf/0 result and each sign still bit for bit
ULP = 16


def n_for(t, binary=False):
    b = V.bits(t)
    if V.kind(t) in ("f", "s", "u") and b <= 8:
        return (1 << b) * ((1 << b) if binary else 1)
    return N


def shape(t, n):
    return "%s[%d]" % (t, n)


# inputs are drawn once per type and seed and shared by the cases of that
# type (one parameter in a batch's module, which XLA can fuse across)
_MEMO = {}


def no_e8m0_min(x):
    """x without f8e8m0fnu's smallest value 2^-127 (0x00, replaced by 1):
    XLA CPU widens it to an f32 denormal, which its flush-to-zero mode
    reads as 0, a value e8m0 cannot hold (so no flushed input models it)."""
    if x.dtype == V.dtype("f8e8m0fnu"):
        raw = x.view(np.uint8).copy()
        raw[raw == 0] = 0x7f
        return raw.view(x.dtype)
    return x


def unary_inputs(t, rng):
    key = ("u", t)
    if key not in _MEMO:
        _MEMO[key] = no_e8m0_min(V.values(t, n_for(t), rng))
    return _MEMO[key]


def binary_inputs(t, rng):
    """Every pair of values for types of at most 8 bits; else the cross
    product of the first 12 values (the specials) and random pairs."""
    key = ("b", t)
    if key not in _MEMO:
        a, c = _binary_inputs(t, rng)
        _MEMO[key] = no_e8m0_min(a), no_e8m0_min(c)
    return _MEMO[key]


def _binary_inputs(t, rng):
    b = V.bits(t)
    k = V.kind(t)
    if k in ("f", "s", "u") and b <= 8:
        allv = V.values(t, 1 << b, rng)
        a = np.repeat(allv, 1 << b)
        c = np.tile(allv, 1 << b)
        return a, c
    a = V.values(t, N, rng)
    c = V.values(t, N, rng)
    s = 12 if k != "pred" else 0
    if s:
        sa = np.repeat(a[:s], s)
        sc = np.tile(c[:s], s)
        a = np.concatenate([sa, a[s * 0:]])
        c = np.concatenate([sc, c])
        perm = rng.permutation(len(c) - s * s)
        c[s * s:] = c[s * s:][perm]
    return a, c


# XLA CPU defects under its flush-to-zero mode (notes/xla-eval-defects.md
# X3): cbrt of a positive f32/bf16 denormal is negative (cbrt(1e-45) =
# -5.6e-16), atan2 of two denormals is NaN (f32, bf16) or pi/2 (f64). Those
# cases read their denormals as zeros of their sign, which both compute.
DENORMAL_FREE = {"cbrt", "atan2", "power"}  # power: f64 denormal^0.65 is 1.7e-211 there


def _no_denormals(op, x):
    if op not in DENORMAL_FREE:
        return x
    from cases import flush_denormals
    return flush_denormals(x)


def unary(op, t, rng, out_t=None, cmp="exact", variant="", attrs=""):
    x = _no_denormals(op, unary_inputs(t, rng))
    n = len(x)
    o = out_t or t
    line = "$r = %s %s($p0)%s" % (shape(o, n), op, attrs)
    return Case(op, t, variant, [(shape(t, n), x)], [line], [("r", shape(o, n))], cmp)


def binary(op, t, rng, out_t=None, cmp="exact", variant="", attrs="", inputs=None):
    a, c = inputs if inputs is not None else binary_inputs(t, rng)
    a, c = _no_denormals(op, a), _no_denormals(op, c)
    n = len(a)
    o = out_t or t
    line = "$r = %s %s($p0, $p1)%s" % (shape(o, n), op, attrs)
    return Case(op, t, variant, [(shape(t, n), a), (shape(t, n), c)], [line],
                [("r", shape(o, n))], cmp)


def float_cmp(op):
    return ("ulp", ULP) if op in TRANSCENDENTAL else "nan"


def unary_cases(rng):
    out = []
    fl = [t for t in XLA_TYPES if V.kind(t) == "f"]
    ints = V.INTS
    cx = V.COMPLEX
    for t in fl:
        for op in ["ceil", "floor", "round-nearest-afz", "round-nearest-even", "sqrt", "rsqrt",
                   "cbrt", "exponential", "exponential-minus-one", "log", "log-plus-one",
                   "logistic", "sine", "cosine", "tan", "tanh", "erf"]:
            out.append(unary(op, t, rng, cmp=float_cmp(op)))
        out.append(unary("is-finite", t, rng, out_t="pred"))
        out.append(unary("real", t, rng))
        out.append(unary("imag", t, rng))
    for t in fl + V.SINT + cx:
        # complex abs: XLA CPU's own scaled hypot, within 2 ulp (X10)
        out.append(unary("abs", t, rng, out_t=("f32" if t == "c64" else "f64") if t in cx else t,
                         cmp=("ulp", 2) if t in cx else "exact"))
    for t in fl + ints + cx:
        out.append(unary("negate", t, rng, cmp="exact"))
        if t not in cx and t not in V.UINT:  # StableHLO has no unsigned sign
            out.append(unary("sign", t, rng))
        out.append(unary("copy", t, rng))
    out.append(unary("copy", "pred", rng))
    for t in ints + ["pred"]:
        out.append(unary("not", t, rng))
    for t in ints:
        out.append(unary("popcnt", t, rng))
        out.append(unary("count-leading-zeros", t, rng))
    for t in cx:
        ft = "f32" if t == "c64" else "f64"
        out.append(unary("real", t, rng, out_t=ft))
        out.append(unary("imag", t, rng, out_t=ft))
    # not generated: sign, sqrt, rsqrt, cbrt, exponential, log and the other
    # transcendental functions of complex values, which hilo's evaluator
    # refuses ("... on complex values is not supported"): not implemented,
    # so not part of this comparison (docs/evaluator.md lists them)
    return out


def binary_cases(rng):
    out = []
    fl = [t for t in XLA_TYPES if V.kind(t) == "f"]
    ints = V.INTS
    for t in fl + ints:
        for op in ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum",
                   "power"]:
            if t == "f8e8m0fnu" and op in ("add", "subtract", "remainder"):
                pass
            out.append(binary(op, t, rng, cmp=float_cmp(op) if V.kind(t) == "f" else "exact"))
    for t in fl:
        out.append(binary("atan2", t, rng, cmp=float_cmp("atan2")))
    for t in V.COMPLEX:
        # XLA CPU contracts the products of a complex multiply into fused
        # multiply-adds (X5) and divides by its own scaled formula: the
        # parts within 2 (multiply) and 64 (divide) units in the last place
        out.append(binary("add", t, rng, cmp="nan"))
        out.append(binary("subtract", t, rng, cmp="nan"))
        out.append(binary("multiply", t, rng, cmp=("ulp", 2)))
        out.append(binary("divide", t, rng, cmp=("ulp", 64)))
    for t in ints + ["pred"]:
        for op in ["and", "or", "xor"]:
            out.append(binary(op, t, rng))
    for t in ["pred"]:
        for op in ["maximum", "minimum", "add", "multiply"]:
            out.append(binary(op, t, rng))
    for t in ints:
        b = V.bits(t)
        for op in ["shift-left", "shift-right-arithmetic", "shift-right-logical"]:
            out.append(binary(op, t, rng, variant="random amounts"))
            a = V.values(t, N, rng)
            lo = -3 if V.kind(t) == "s" else 0
            amt = V.small_ints(t, N, rng, max(lo, -(1 << (b - 1))) if b > 2 else lo if V.kind(t) == "u" else -2,
                               min(2 * b + 2, (1 << (b - 1)) - 1 if V.kind(t) == "s" else (1 << b) - 1))
            out.append(binary(op, t, rng, variant="amounts -3..2w+2", inputs=(a, amt)))
    for ft, ct in (("f32", "c64"), ("f64", "c128")):
        out.append(binary("complex", ft, rng, out_t=ct))
    return out


DIRS = ["EQ", "NE", "LT", "LE", "GT", "GE"]


def compare_cases(rng):
    out = []
    for t in XLA_TYPES:
        k = V.kind(t)
        dirs = ["EQ", "NE"] if k == "c" else DIRS
        types = [None]
        if k == "f":
            types = ["FLOAT", "TOTALORDER"]
        for ty in types:
            for d in dirs:
                attrs = ", direction=%s" % d + (", type=%s" % ty if ty else "")
                c = binary("compare", t, rng, out_t="pred", attrs=attrs,
                           variant=d + ("/" + ty if ty else ""))
                out.append(c)
    return out


def select_clamp_cases(rng):
    out = []
    for t in XLA_TYPES:
        a, c = binary_inputs(t, rng)
        n = len(a)
        p = rng.integers(0, 2, size=n).astype(np.bool_)
        out.append(Case("select", t, "", [(shape("pred", n), p), (shape(t, n), a), (shape(t, n), c)],
                        ["$r = %s select($p0, $p1, $p2)" % shape(t, n)], [("r", shape(t, n))]))
    for t in [t for t in XLA_TYPES if t not in V.COMPLEX]:
        x = V.values(t, n_for(t, True) if V.bits(t) <= 4 else 512, rng)
        n = len(x)
        lo = V.values(t, n, rng)
        hi = V.values(t, n, rng)
        rng.shuffle(lo)
        rng.shuffle(hi)
        cc = "nan" if V.kind(t) == "f" else "exact"
        out.append(Case("clamp", t, "array bounds (lo > hi included)",
                        [(shape(t, n), lo), (shape(t, n), x), (shape(t, n), hi)],
                        ["$r = %s clamp($p0, $p1, $p2)" % shape(t, n)], [("r", shape(t, n))], cc))
        for j in range(3):
            sl, sh = V.values(t, 2, rng)
            out.append(Case("clamp", t, "scalar bounds #%d" % j,
                            [(t + "[]", np.array(sl)), (shape(t, n), x), (t + "[]", np.array(sh))],
                            ["$r = %s clamp($p0, $p1, $p2)" % shape(t, n)], [("r", shape(t, n))],
                            cc))
    return out


def convert_cases(rng):
    out = []
    for s in XLA_TYPES:
        x = V.values(s, max(n_for(s), 160) if V.kind(s) not in ("pred",) else 16, rng)
        n = len(x)
        xp = no_e8m0_min(x)  # to pred: 2^-127 is an f32 denormal, read as 0
        for d in XLA_TYPES:
            if d == "pred" and s == "f8e8m0fnu":
                out.append(Case("convert", s, "to pred", [(shape(s, n), xp)],
                                ["$r = %s convert($p0)" % shape(d, n)], [("r", shape(d, n))]))
                continue
            if V.kind(s) == "c" and V.kind(d) != "c":
                continue  # XLA: complex converts only to complex
            if s == "f4e2m1fn" and V.kind(d) in ("s", "u"):
                continue  # XLA CPU defect X4: f4e2m1fn 6.0 (0x7) converts to INT_MAX
            out.append(Case("convert", s, "to " + d, [(shape(s, n), x)],
                            ["$r = %s convert($p0)" % shape(d, n)], [("r", shape(d, n))]))
    return out


def bitcast_cases(rng):
    out = []
    # XLA CPU 0.10.2 aborts compiling a complex bitcast-convert
    # (BitcastDtypesExpander: "unhandled type 0"); pred has no bit layout
    types = [t for t in XLA_TYPES if t != "pred" and V.kind(t) != "c"]
    for s in types:
        for d in types:
            bs, bd = V.bits(s), V.bits(d)
            if bs < 8 and bs != bd or bd < 8 and bs != bd:
                continue  # XLA CPU has no sub-byte <-> wider bitcast-convert
            n = 8
            x = V.values(s, max(n_for(s), 64) if bs >= bd else max(n_for(s), 64) * (bd // bs), rng)
            if bs == bd:
                m = len(x)
                pshape, oshape = shape(s, m), shape(d, m)
            elif bs > bd:
                m = len(x)
                pshape, oshape = shape(s, m), "%s[%d,%d]" % (d, m, bs // bd)
            else:
                r = bd // bs
                m = len(x) // r
                x = x[:m * r].reshape(m, r)
                pshape, oshape = "%s[%d,%d]" % (s, m, r), shape(d, m)
            out.append(Case("bitcast-convert", s, "to " + d, [(pshape, x)],
                            ["$r = %s bitcast-convert($p0)" % oshape], [("r", oshape)]))
    return out


def reduce_precision_cases(rng):
    out = []
    for t in ["f16", "bf16", "f32", "f64"]:
        x = V.values(t, 256, rng)
        for e, m in [(1, 0), (2, 1), (3, 2), (4, 3), (5, 2), (5, 10), (8, 7), (8, 23), (8, 0),
                     (11, 52), (4, 0), (6, 5)]:
            out.append(Case("reduce-precision", t, "e%dm%d" % (e, m), [(shape(t, 256), x)],
                            ["$r = %s reduce-precision($p0), exponent_bits=%d, mantissa_bits=%d"
                             % (shape(t, 256), e, m)], [("r", shape(t, 256))]))
    return out


def chain_cases(rng):
    """Small multi-instruction modules: arithmetic feeding converts and
    compares (every intermediate rounding is observable)."""
    out = []
    for t in ["f16", "bf16", "f32", "f64", "f8e4m3fn", "f8e5m2"]:
        # ordinary magnitudes and a few specials: a denormal made inside
        # the chain would be flushed by XLA CPU where no input shows it
        n = 240
        a = rng.uniform(-300, 300, n).astype(V.dtype(t))
        b = rng.uniform(-2, 2, n).astype(V.dtype(t))
        a[:6] = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0]).astype(V.dtype(t))
        s = shape(t, n)
        # (a product feeding an add is contracted by XLA CPU into one
        # fused multiply-add, rounded once: X5; the chain avoids it)
        lines = ["$m = %s add($p0, $p1)" % s, "$s = %s multiply($m, $p0)" % s,
                 "$c = f64[%d] convert($s)" % n, "$q = pred[%d] compare($m, $s), direction=LT" % n,
                 "$x = %s select($q, $m, $s)" % s]
        out.append(Case("add+multiply+convert+select", t, "", [(s, a), (s, b)], lines,
                        [("c", "f64[%d]" % n), ("x", s)], "nan"))
    return out


def cases(seed):
    rng = np.random.default_rng(seed)
    _MEMO.clear()
    out = []
    for f in (unary_cases, binary_cases, compare_cases, select_clamp_cases, convert_cases,
              bitcast_cases, reduce_precision_cases, chain_cases):
        out.extend(f(rng))
    return out
