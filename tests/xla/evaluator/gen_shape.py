"""Data-movement cases: broadcast, reshape, transpose, slice (strided),
dynamic-slice and dynamic-update-slice (starts out of range, negative, of
every index type), concatenate, pad (negative and interior), iota, reverse,
gather and scatter (modes, windows, batching), over every element type.
Data movement keeps every bit, NaN payloads included: compared exactly."""
import numpy as np

import values as V
from cases import Case
from gen_elementwise import XLA_TYPES

MOVE_TYPES = XLA_TYPES
INDEX_TYPES = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]


def sh(t, dims):
    return "%s[%s]" % (t, ",".join(str(d) for d in dims))


def arr(t, dims, rng):
    n = int(np.prod(dims)) if dims else 1
    return V.values(t, n, rng).reshape(dims)


def one(op, t, variant, params, line_fmt, out_shape, rng=None):
    return Case(op, t, variant, params, [line_fmt], [("r", out_shape)])


def movement_cases(t, rng):
    out = []
    x = arr(t, (3, 4, 5), rng)
    ps = [(sh(t, (3, 4, 5)), x)]
    # broadcast
    s1 = arr(t, (4,), rng)
    out.append(Case("broadcast", t, "1d->3d dims={1}", [(sh(t, (4,)), s1)],
                    ["$r = %s broadcast($p0), dimensions={1}" % sh(t, (2, 4, 3))],
                    [("r", sh(t, (2, 4, 3)))]))
    sc = arr(t, (), rng)
    out.append(Case("broadcast", t, "scalar", [(sh(t, ()), sc)],
                    ["$r = %s broadcast($p0), dimensions={}" % sh(t, (3, 2))], [("r", sh(t, (3, 2)))]))
    # (a broadcast with unsorted dimensions is valid HLO, but XLA's
    # HLO -> StableHLO translation rejects it: not generated)
    # reshape, transpose
    out.append(Case("reshape", t, "3x4x5->12x5", ps, ["$r = %s reshape($p0)" % sh(t, (12, 5))],
                    [("r", sh(t, (12, 5)))]))
    for perm in [(2, 0, 1), (1, 0, 2), (2, 1, 0)]:
        d = tuple((3, 4, 5)[p] for p in perm)
        out.append(Case("transpose", t, "dims=%s" % (perm,), ps,
                        ["$r = %s transpose($p0), dimensions={%s}" % (sh(t, d), ",".join(map(str, perm)))],
                        [("r", sh(t, d))]))
    # slice
    for (lo, hi, st) in [((0, 1, 0), (3, 4, 5), (1, 1, 1)), ((1, 0, 1), (3, 4, 5), (2, 3, 2)),
                         ((0, 1, 4), (3, 3, 5), (3, 1, 1)), ((2, 3, 0), (3, 4, 5), (1, 1, 5))]:
        d = tuple(-(-(h - l) // s) for l, h, s in zip(lo, hi, st))
        spec = ", ".join("[%d:%d:%d]" % z for z in zip(lo, hi, st))
        out.append(Case("slice", t, "slice={%s}" % spec, ps,
                        ["$r = %s slice($p0), slice={%s}" % (sh(t, d), spec)], [("r", sh(t, d))]))
    # concatenate
    y = arr(t, (3, 2, 5), rng)
    z = arr(t, (3, 1, 5), rng)
    out.append(Case("concatenate", t, "dim 1, 3 operands",
                    ps + [(sh(t, (3, 2, 5)), y), (sh(t, (3, 1, 5)), z)],
                    ["$r = %s concatenate($p0, $p1, $p2), dimensions={1}" % sh(t, (3, 7, 5))],
                    [("r", sh(t, (3, 7, 5)))]))
    # pad
    pv = arr(t, (), rng)
    for spec in ["1_2x0_0x2_1", "-1_1x1_-2x0_0", "0_0_1x2_1_2x-1_-1_1", "-2_-1_2x-3_0_1x1_-5_0",
                 "0_0_3x0_0x0_0_2"]:
        dims = []
        for (dim, s) in zip((3, 4, 5), spec.split("x")):
            p = [int(v) for v in s.split("_")] + [0]
            lo, hi, it = p[0], p[1], p[2]
            dims.append(lo + hi + dim + max(dim - 1, 0) * it)
        out.append(Case("pad", t, "padding=" + spec, ps + [(sh(t, ()), pv)],
                        ["$r = %s pad($p0, $p1), padding=%s" % (sh(t, dims), spec)],
                        [("r", sh(t, dims))]))
    # reverse
    for dims in ["0", "1,2", "0,1,2"]:
        out.append(Case("reverse", t, "dims={%s}" % dims, ps,
                        ["$r = %s reverse($p0), dimensions={%s}" % (sh(t, (3, 4, 5)), dims)],
                        [("r", sh(t, (3, 4, 5)))]))
    return out


def dynamic_cases(t, rng):
    out = []
    x = arr(t, (5, 6), rng)
    upd = arr(t, (2, 3), rng)
    for it in INDEX_TYPES if t in ("f32", "s8", "bf16", "pred") else ["s32"]:
        signed = it.startswith("s")
        bits = V.bits(it)
        mx = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        starts = [(0, 0), (3, 3), (4, 5), (-1, 2), (7, -9), (mx, 1), (-mx - 1 if signed else 255, 3),
                  (2, 100)]
        for s0, s1 in starts:
            if not signed and (s0 < 0 or s1 < 0):
                continue
            a0 = np.array(s0).astype(V.dtype(it))
            a1 = np.array(s1).astype(V.dtype(it))
            ps = [(sh(t, (5, 6)), x), (it + "[]", a0), (it + "[]", a1)]
            out.append(Case("dynamic-slice", t, "%s starts (%d,%d)" % (it, s0, s1), ps,
                            ["$r = %s dynamic-slice($p0, $p1, $p2), dynamic_slice_sizes={2,3}"
                             % sh(t, (2, 3))], [("r", sh(t, (2, 3)))]))
            ps2 = [(sh(t, (5, 6)), x), (sh(t, (2, 3)), upd), (it + "[]", a0), (it + "[]", a1)]
            out.append(Case("dynamic-update-slice", t, "%s starts (%d,%d)" % (it, s0, s1), ps2,
                            ["$r = %s dynamic-update-slice($p0, $p1, $p2, $p3)" % sh(t, (5, 6))],
                            [("r", sh(t, (5, 6)))]))
    return out


def iota_cases(rng):
    out = []
    for t in [t for t in XLA_TYPES if t not in ("pred",)]:
        for dims, d in [((16,), 0), ((4, 70), 1), ((300,), 0), ((3, 5, 2), 1)]:
            if V.bits(t) <= 8 and dims == (300,) and V.kind(t) in ("s", "u"):
                pass
            out.append(Case("iota", t, "%s iota_dimension=%d" % (dims, d), [],
                            ["$r = %s iota(), iota_dimension=%d" % (sh(t, dims), d)],
                            [("r", sh(t, dims))]))
    return out


GATHER = [
    # (operand dims, indices dims, indices values, attrs, out dims, variant)
    ((5, 6), (4, 1), [[0], [4], [-2], [9]],
     "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
     "slice_sizes={1,6}", (4, 6), "rows, out-of-range starts clamp"),
    ((5, 6), (3, 2), [[1, 2], [4, 5], [-3, 7]],
     "offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, "
     "slice_sizes={2,3}", (3, 2, 3), "2x3 windows"),
    ((5, 6), (2, 3, 2), [[[0, 0], [1, 5], [4, 4]], [[2, 1], [9, 9], [-1, -1]]],
     "offset_dims={2}, collapsed_slice_dims={0}, start_index_map={0,1}, index_vector_dim=2, "
     "slice_sizes={1,4}", (2, 3, 4), "batch of 2x3 index vectors"),
    ((5, 6), (4,), [5, 0, 3, -1],
     "offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, "
     "slice_sizes={5,1}", (4, 5), "columns, index_vector_dim = rank"),
    # (operand_batching_dims: XLA's HLO -> StableHLO translation of 0.10.2
    # rejects the gather hilo's evaluator takes; not generated)
]


def gather_cases(t, rng, index_types):
    out = []
    for od, idd, iv, attrs, outd, var in GATHER:
        x = arr(t, od, rng)
        for it in index_types:
            idx = np.array(iv)
            if it.startswith("u"):
                idx = np.abs(idx)
            idx = idx.astype(V.dtype(it))
            out.append(Case("gather", t, var + " (%s)" % it, [(sh(t, od), x), (sh(it, idd), idx)],
                            ["$r = %s gather($p0, $p1), %s" % (sh(t, outd), attrs)],
                            [("r", sh(t, outd))]))
    return out


def scatter_comp(name, t, body):
    return ("%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT r = %s[] %s\n}"
            % (name, t, t, t, body))


SCATTER = [
    ((5, 6), (4, 1), [[0], [4], [-1], [2]], (4, 6),
     "update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
     "index_vector_dim=1", "rows, one out of range (skipped)"),
    ((5, 6), (3, 2), [[1, 2], [4, 4], [0, 0]], (3, 2, 3),
     "update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, "
     "index_vector_dim=1", "2x3 windows, one not fitting"),
    ((5, 6), (6, 1), [[1], [1], [3], [1], [5], [3]], (6, 6),
     "update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
     "index_vector_dim=1", "repeated rows"),
]


def scatter_cases(t, rng, index_types):
    out = []
    k = V.kind(t)
    combs = [("assign", "copy(b)")]
    if k != "pred":
        combs.append(("add", "add(a, b)"))
    if k not in ("c",):
        combs.append(("max", "maximum(a, b)"))
    for od, idd, iv, ud, attrs, var in SCATTER:
        x = arr(t, od, rng)
        if k == "f" and V.bits(t) > 8:
            u = V.exact_floats(t, int(np.prod(ud)), rng).reshape(ud)
        else:
            u = arr(t, ud, rng)
        for cname, body in combs:
            if cname == "add" and var == "repeated rows" and k == "f":
                # several updates of one element: XLA leaves their order
                # unspecified, so floats add exact small integers only
                pass
            cn = "scatter_%s_%s" % (cname, t)
            for it in index_types:
                idx = np.array(iv).astype(V.dtype(it))
                line = "$r = %s scatter($p0, $p1, $p2), %s, to_apply=%s" % (sh(t, od), attrs, cn)
                out.append(Case("scatter", t, "%s, %s (%s)" % (var, cname, it),
                                [(sh(t, od), x), (sh(it, idd), idx), (sh(t, ud), u)],
                                [line], [("r", sh(t, od))],
                                "exact" if cname == "assign" else "nan",
                                {cn: scatter_comp(cn, t, body)}))
    return out


def cases(seed):
    rng = np.random.default_rng(seed + 1)
    out = []
    for t in MOVE_TYPES:
        out.extend(movement_cases(t, rng))
        out.extend(dynamic_cases(t, rng))
        its = ["s32", "s64", "u32", "s8"] if t in ("f32", "s32") else ["s32"]
        out.extend(gather_cases(t, rng, its))
        out.extend(scatter_cases(t, rng, ["s32", "u8"] if t in ("f32", "bf16") else ["s32"]))
    out.extend(iota_cases(rng))
    return out
