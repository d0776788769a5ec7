"""XLA's narrow float formats (f16, bf16, f8, f6, f4) as raw bits, in numpy.

The same parametric encoder/decoder as src/ir/float.c (hilo_float_encode,
hilo_float_decode), vectorized: round to nearest even, each format's own
inf/NaN/saturation rules, a NaN's sign kept where the format has one. Used
by Module.evaluate when ml_dtypes is absent, so that a float array for a bf16
parameter carries the bits the evaluator's `convert` would give (tested bit
for bit against it, python/tests/test_evaluate_inputs.py).
"""

IEEE, FN, FNUZ, E8M0, NONE = range(5)

# dtype -> (exponent bits, mantissa bits, bias, kind), as get_fmt in float.c
FORMATS = {
    "f16": (5, 10, 15, IEEE), "bf16": (8, 7, 127, IEEE),
    "f8e5m2": (5, 2, 15, IEEE), "f8e4m3": (4, 3, 7, IEEE), "f8e3m4": (3, 4, 3, IEEE),
    "f8e4m3fn": (4, 3, 7, FN), "f8e4m3b11fnuz": (4, 3, 11, FNUZ),
    "f8e5m2fnuz": (5, 2, 16, FNUZ), "f8e4m3fnuz": (4, 3, 8, FNUZ),
    "f8e8m0fnu": (8, 0, 127, E8M0), "f4e2m1fn": (2, 1, 1, NONE),
    "f6e3m2fn": (3, 2, 3, NONE), "f6e2m3fn": (2, 3, 1, NONE),
}


def _nan_bits(eb, mb, kind):
    emax = (1 << eb) - 1
    if kind == IEEE:
        return (emax << mb) | (1 << (mb - 1))
    if kind == FN:
        return (emax << mb) | ((1 << mb) - 1)
    if kind == FNUZ:
        return 1 << (eb + mb)
    if kind == E8M0:
        return 0xff
    return 0


def _max_bits(eb, mb, kind):
    emax, mall = (1 << eb) - 1, (1 << mb) - 1
    if kind == IEEE:
        return ((emax - 1) << mb) | mall
    if kind == FN:
        return (emax << mb) | (mall - 1)
    if kind == E8M0:
        return 0xfe
    return (emax << mb) | mall


def encode(np, v, dtype):
    """Raw bits (uint16 for f16/bf16, else uint8) of float64 array v
    converted to dtype, exactly as hilo_float_encode(dtype, v[k])."""
    eb, mb, bias, kind = FORMATS[dtype]
    out_t = np.uint16 if eb + mb + (kind != E8M0) > 8 else np.uint8
    v = np.asarray(v, np.float64)
    with np.errstate(all="ignore"):
        if kind == E8M0:
            m, e = np.frexp(v)                  # v in [2^(e-1), 2^e)
            lo, hi = np.ldexp(1.0, e - 1), np.ldexp(1.0, e)
            ex = np.where(v - lo < hi - v, e - 1, e)   # ties round up
            biased = ex.astype(np.int64) + 127
            bits = np.where(biased < 0, 0, np.where(biased > 0xfe, 0xff, biased))
            bad = np.isnan(v) | (v < 0) | np.isinf(v) | (v == 0)   # no zero: the NaN
            return np.where(bad, 0xff, bits).astype(out_t)
        sbit = 1 << (eb + mb)
        neg = np.signbit(v)
        s = np.where(neg, sbit, 0).astype(np.int64)
        a = np.abs(v)
        nan, inf, zero = np.isnan(v), np.isinf(v), a == 0
        finite = ~(nan | inf | zero)
        emin = 1 - bias
        _, e = np.frexp(np.where(finite, a, 1.0))
        ex = np.maximum(e.astype(np.int64) - 1, emin)
        q = np.rint(np.ldexp(np.where(finite, a, 1.0), (mb - ex).astype(np.int32)))
        qi = q.astype(np.int64)
        over = qi >= (2 << mb)                  # mantissa overflowed: bump the exponent
        qi = np.where(over, qi >> 1, qi)
        ex = np.where(over, ex + 1, ex)
        bits = np.where(qi < (1 << mb), qi, ((ex + bias) << mb) | (qi & ((1 << mb) - 1)))
        if kind == IEEE:
            big = s | (((1 << eb) - 1) << mb)   # inf
        elif kind == NONE:
            big = s | _max_bits(eb, mb, kind)   # saturates
        else:                                   # fn/fnuz: overflow is NaN
            big = _nan_bits(eb, mb, kind) | (s if kind == FN else 0)
        r = np.where(bits > _max_bits(eb, mb, kind), big, s | bits)
        if kind == FNUZ:
            r = np.where(bits == 0, 0, r)       # no -0
        r = np.where(zero, 0 if kind == FNUZ else s, r)
        r = np.where(inf, big if kind != IEEE else s | (((1 << eb) - 1) << mb), r)
        if kind == NONE:
            nanv = np.full(v.shape, sbit)       # no NaN: XLA CPU gives the -0 pattern
        else:
            nanv = _nan_bits(eb, mb, kind) | (s if kind in (IEEE, FN) else 0)
        r = np.where(nan, nanv, r)
    return r.astype(out_t)


def decode(np, bits, dtype):
    """The exact float64 values of raw bits in dtype (hilo_float_decode)."""
    eb, mb, bias, kind = FORMATS[dtype]
    b = np.asarray(bits).astype(np.int64) & ((1 << (eb + mb + (0 if kind == E8M0 else 1))) - 1)
    with np.errstate(all="ignore"):
        if kind == E8M0:
            return np.where(b == 0xff, np.nan, np.ldexp(1.0, (b - 127).astype(np.int32)))
        sign = (b >> (eb + mb)) & 1
        e = (b >> mb) & ((1 << eb) - 1)
        m = b & ((1 << mb) - 1)
        emax = (1 << eb) - 1
        v = np.where(e == 0, np.ldexp(m.astype(np.float64), 1 - bias - mb),
                     np.ldexp((m | (1 << mb)).astype(np.float64), (e - bias - mb).astype(np.int32)))
        if kind == IEEE:
            v = np.where(e == emax, np.where(m != 0, np.nan, np.inf), v)
        elif kind == FN:
            v = np.where((e == emax) & (m == (1 << mb) - 1), np.nan, v)
        v = np.where(sign == 1, -v, v)
        if kind == FNUZ:
            v = np.where((sign == 1) & (e == 0) & (m == 0), np.nan, v)
    return v
