"""Element types and seeded input values for the evaluator parity tier.

Every element type hilo's evaluator supports is described once here: its
numpy dtype (ml_dtypes for the narrow floats and sub-byte integers), its
width, its kind, and the value set the cases draw from. Floats are drawn as
bit patterns, so that signalling NaNs, NaN payloads of both signs, +-0,
+-inf, denormals and full-mantissa values all occur; formats of at most 8
bits are drawn exhaustively (every pattern). Integers draw min, max, 0, +-1,
INT_MIN + 1 and random values (every value for widths up to 8 bits).
"""
import numpy as np
import ml_dtypes

# name -> (dtype, bits, kind) with kind in {"pred", "s", "u", "f", "c"}
TYPES = {
    "pred": (np.dtype(np.bool_), 1, "pred"),
    "s2": (np.dtype(ml_dtypes.int2), 2, "s"), "s4": (np.dtype(ml_dtypes.int4), 4, "s"),
    "s8": (np.dtype(np.int8), 8, "s"), "s16": (np.dtype(np.int16), 16, "s"),
    "s32": (np.dtype(np.int32), 32, "s"), "s64": (np.dtype(np.int64), 64, "s"),
    "u2": (np.dtype(ml_dtypes.uint2), 2, "u"), "u4": (np.dtype(ml_dtypes.uint4), 4, "u"),
    "u8": (np.dtype(np.uint8), 8, "u"), "u16": (np.dtype(np.uint16), 16, "u"),
    "u32": (np.dtype(np.uint32), 32, "u"), "u64": (np.dtype(np.uint64), 64, "u"),
    "f16": (np.dtype(np.float16), 16, "f"), "bf16": (np.dtype(ml_dtypes.bfloat16), 16, "f"),
    "f32": (np.dtype(np.float32), 32, "f"), "f64": (np.dtype(np.float64), 64, "f"),
    "f8e5m2": (np.dtype(ml_dtypes.float8_e5m2), 8, "f"),
    "f8e4m3": (np.dtype(ml_dtypes.float8_e4m3), 8, "f"),
    "f8e4m3fn": (np.dtype(ml_dtypes.float8_e4m3fn), 8, "f"),
    "f8e4m3b11fnuz": (np.dtype(ml_dtypes.float8_e4m3b11fnuz), 8, "f"),
    "f8e3m4": (np.dtype(ml_dtypes.float8_e3m4), 8, "f"),
    "f8e5m2fnuz": (np.dtype(ml_dtypes.float8_e5m2fnuz), 8, "f"),
    "f8e4m3fnuz": (np.dtype(ml_dtypes.float8_e4m3fnuz), 8, "f"),
    "f8e8m0fnu": (np.dtype(ml_dtypes.float8_e8m0fnu), 8, "f"),
    "f4e2m1fn": (np.dtype(ml_dtypes.float4_e2m1fn), 4, "f"),
    "f6e3m2fn": (np.dtype(ml_dtypes.float6_e3m2fn), 6, "f"),
    "f6e2m3fn": (np.dtype(ml_dtypes.float6_e2m3fn), 6, "f"),
    "c64": (np.dtype(np.complex64), 64, "c"), "c128": (np.dtype(np.complex128), 128, "c"),
}

SINT = ["s2", "s4", "s8", "s16", "s32", "s64"]
UINT = ["u2", "u4", "u8", "u16", "u32", "u64"]
INTS = SINT + UINT
WIDE_FLOATS = ["f16", "bf16", "f32", "f64"]
F8 = ["f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e3m4", "f8e5m2fnuz", "f8e4m3fnuz",
      "f8e8m0fnu"]
NARROW = F8 + ["f4e2m1fn", "f6e3m2fn", "f6e2m3fn"]
FLOATS = WIDE_FLOATS + NARROW
COMPLEX = ["c64", "c128"]
ALL = ["pred"] + INTS + FLOATS + COMPLEX


def kind(t):
    return TYPES[t][2]


def bits(t):
    return TYPES[t][1]


def dtype(t):
    return TYPES[t][0]


_UINT_OF = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_IEEE = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


def raw_view(a):
    """The storage bits of a float array as unsigned integers (uint64)."""
    t = a.dtype
    if t.itemsize in _UINT_OF:
        return a.view(_UINT_OF[t.itemsize]).astype(np.uint64)
    raise ValueError("no raw view for %s" % t)


def _ieee_specials(t):
    e, m = _IEEE[t]
    sign = 1 << (e + m)
    expall = ((1 << e) - 1) << m
    quiet = 1 << (m - 1)
    pats = [0, sign,                                   # +-0
            expall, expall | sign,                     # +-inf
            expall | quiet, expall | quiet | sign,     # +-quiet NaN
            expall | 1, expall | 1 | sign,             # signalling NaNs
            expall | quiet | 5, expall | (quiet >> 1) | 3 | sign,  # payloads
            1, 1 | sign, (1 << m) - 1, ((1 << m) - 1) | sign,   # denormals
            1 << m, (1 << m) | sign,                   # smallest normals
            expall - 1, (expall - 1) | sign]           # +-largest finite
    bias = (1 << (e - 1)) - 1
    for v in (1.0, -1.0, 0.5, 1.5, 2.5, -2.5, 3.0, -0.5, 2.0, 100.0, -7.25):
        ex = int(np.floor(np.log2(abs(v))))
        frac = abs(v) / 2.0 ** ex - 1.0
        p = ((ex + bias) << m) | int(round(frac * (1 << m)))
        pats.append(p | (sign if v < 0 else 0))
    return pats


def float_values(t, n, rng):
    """n values of float type t: specials first, then random bit patterns
    (exhaustive for <= 8-bit formats, repeated to fill n)."""
    dt, b, _ = TYPES[t]
    if b <= 8:
        pats = np.arange(1 << b, dtype=np.uint8)
        rng.shuffle(pats)
        reps = -(-n // len(pats))
        pats = np.tile(pats, reps)[:n]
        return pats.view(dt) if b == 8 else _narrow_from_bits(t, pats)
    u = _UINT_OF[b]
    sp = np.array(_ieee_specials(t), dtype=np.uint64).astype(u)
    rnd = rng.integers(0, 1 << b if b < 64 else 2**64 - 1, size=max(n, len(sp)), dtype=np.uint64,
                       endpoint=True).astype(u)
    # half of the random draws in a moderate range (exponents near 0), where
    # most arithmetic does not overflow
    mid = np.array([1.0], dtype=dt).view(u)[0]
    e, m = _IEEE[t]
    span = (rng.integers(0, 1 << (m + 4), size=len(rnd), dtype=np.uint64)).astype(u)
    signs = (rng.integers(0, 2, size=len(rnd), dtype=np.uint64) << np.uint64(b - 1)).astype(u)
    moderate = (mid - (u(1) << u(m + 3)) + span) | signs
    rnd = np.where(np.arange(len(rnd)) % 2 == 0, rnd, moderate)
    pats = np.concatenate([sp, rnd])[:n] if n >= len(sp) else sp[:n]
    return pats.view(dt)


def _narrow_from_bits(t, pats):
    """A sub-byte float array from bit patterns (ml_dtypes keeps them in the
    low bits of a byte)."""
    return pats.astype(np.uint8).view(TYPES[t][0])


def int_values(t, n, rng):
    dt, b, k = TYPES[t]
    if k == "s":
        lo, hi = -(1 << (b - 1)), (1 << (b - 1)) - 1
    else:
        lo, hi = 0, (1 << b) - 1
    if b <= 8:
        vals = np.arange(lo, hi + 1, dtype=np.int64)
        rng.shuffle(vals)
        vals = np.tile(vals, -(-n // len(vals)))[:n]
    else:
        sp = [lo, hi, 0, 1, lo + 1, hi - 1, 2, 3, 7, b - 1, b, b + 1]
        if k == "s":
            sp += [-1, -2, -b, -(b + 1)]
        else:
            sp += [hi >> 1, (hi >> 1) + 1]
        small = rng.integers(-40 if k == "s" else 0, 41, size=n)
        big = rng.integers(lo, hi, size=n, dtype=np.int64 if k == "s" or b < 64 else np.uint64,
                           endpoint=True)
        vals = list(sp) + [int(small[i]) if i % 2 else int(big[i]) for i in range(n)]
        vals = vals[:n]
    if k == "u" and b == 64:
        return np.array([int(v) % (1 << 64) for v in vals], dtype=np.uint64)
    return np.array(vals, dtype=np.int64).astype(dt)


def values(t, n, rng):
    """n seeded values of element type t (a numpy array of its dtype)."""
    k = kind(t)
    if k == "pred":
        return rng.integers(0, 2, size=n).astype(np.bool_)
    if k in ("s", "u"):
        return int_values(t, n, rng)
    if k == "f":
        return float_values(t, n, rng)
    part = "f32" if t == "c64" else "f64"
    re = float_values(part, n, rng)
    im = float_values(part, n, rng)
    rng.shuffle(im)
    out = np.empty(n, dtype=dtype(t))
    out.real = re
    out.imag = im
    return out


def small_ints(t, n, rng, lo, hi):
    """n integers in [lo, hi] of integer type t (indices, shift amounts)."""
    return rng.integers(lo, hi, size=n, endpoint=True).astype(np.int64).astype(dtype(t))


def exact_floats(t, n, rng, lo=-8, hi=8):
    """Small integers as type t: sums and products of a few of them are exact
    in every format of at least bf16's precision (reductions whose order XLA
    leaves unspecified)."""
    return rng.integers(lo, hi, size=n, endpoint=True).astype(np.float64).astype(dtype(t))
