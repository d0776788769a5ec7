"""The case model of the evaluator parity tier and the module batcher.

A case is one small computation: its parameters (shape text and seeded
values), its instruction lines, its outputs, how the outputs are compared,
and the helper computations it calls (reducers, comparators, bodies) by
name. Local names are written `$x`; the batcher gives every case its own
prefix, so many cases share one module (a tuple root) and one XLA compile.
"""
import re

import numpy as np

from values import kind


class Case:
    """op: the opcode counted in the report; ty: the element type; variant:
    the attribute variant (text); params: [(shape text, numpy array)];
    lines: instruction lines over $p0.. and $locals; outs: [(local, shape
    text)]; cmp: "exact" (bit for bit), "nan" (bit for bit, except that
    where both results are NaN their sign and payload are not compared) or
    ("ulp", n) (also within n units in the last place: the functions
    whose precision XLA leaves to the implementation); comps: {name:
    computation text}."""
    __slots__ = ("op", "ty", "variant", "params", "lines", "outs", "cmp", "comps")

    def __init__(self, op, ty, variant, params, lines, outs, cmp="exact", comps=None):
        self.op, self.ty, self.variant = op, ty, variant
        self.params, self.lines, self.outs = params, lines, outs
        self.cmp, self.comps = cmp, comps or {}

    def label(self):
        return "%s %s %s" % (self.op, self.ty, self.variant) if self.variant else \
            "%s %s" % (self.op, self.ty)


_LOCAL = re.compile(r"\$(\w+)")


def module_text(cases, name):
    """One module whose entry computation evaluates every case and returns
    all their outputs as one flat tuple; also the flat list of inputs."""
    comps = {}
    for c in cases:
        comps.update(c.comps)
    out = ["HloModule %s" % name, ""]
    for text in comps.values():
        out.append(text.strip())
        out.append("")
    body, roots, shapes, inputs = [], [], [], []
    shared = {}  # one parameter per input array that several cases read
    for k, c in enumerate(cases):
        pre = "c%d_" % k
        names = {}
        for j, (shape, arr) in enumerate(c.params):
            key = (id(arr), shape)
            if key not in shared:
                shared[key] = "in%d" % len(inputs)
                body.append("  %s = %s parameter(%d)" % (shared[key], shape, len(inputs)))
                inputs.append(arr)
            names["p%d" % j] = shared[key]
        for line in c.lines:
            body.append("  " + _LOCAL.sub(
                lambda mo: names.get(mo.group(1)) or pre + mo.group(1), line))
        for var, shape in c.outs:
            roots.append(pre + var)
            shapes.append(shape)
    # the outputs of one element type are flattened and concatenated: XLA
    # fuses the producers of a concatenate into one kernel, and compiling
    # kernels is what an XLA run of many small cases costs
    groups = {}
    for r, shape in zip(roots, shapes):
        t, dims = parse_shape(shape)
        n = 1
        for d in dims:
            n *= d
        if n == 0:
            continue
        flat = "%s_flat" % r
        body.append("  %s = %s[%d] reshape(%s)" % (flat, t, n, r))
        groups.setdefault(t, []).append((flat, n))
    cats, cshapes = [], []
    for t, parts in groups.items():
        total = sum(n for _, n in parts)
        name = "cat_%s" % t
        body.append("  %s = %s[%d] concatenate(%s), dimensions={0}" % (
            name, t, total, ", ".join(f for f, _ in parts)))
        cats.append(name)
        cshapes.append("%s[%d]" % (t, total))
    out.append("ENTRY main {")
    out.extend(body)
    out.append("  ROOT out = (%s) tuple(%s)" % (", ".join(cshapes), ", ".join(cats)))
    out.append("}")
    return "\n".join(out) + "\n", inputs


def parse_shape(shape):
    """("f32", (3, 4)) of "f32[3,4]"."""
    t, rest = shape.split("[", 1)
    dims = tuple(int(d) for d in rest.rstrip("]").split(",") if d)
    return t, dims


def split_outputs(cases, leaves):
    """The outputs of each case (a list per case, in its outs order, each
    reshaped to its shape) from the concatenated leaves module_text's
    module returns."""
    order = []
    for c in cases:
        for _, shape in c.outs:
            order.append(parse_shape(shape))
    types = []
    for t, _ in order:
        if t not in types:
            types.append(t)
    present = [t for t in types if any(tt == t and _size(d) for tt, d in order)]
    by_type = dict(zip(present, leaves))
    offs = {t: 0 for t in present}
    flat = []
    for t, dims in order:
        n = _size(dims)
        if n == 0:
            flat.append(np.zeros(dims, dtype=np.float32))
            continue
        a = np.asarray(by_type[t]).reshape(-1)
        flat.append(a[offs[t]:offs[t] + n].reshape(dims))
        offs[t] += n
    res, k = [], 0
    for c in cases:
        res.append(flat[k:k + len(c.outs)])
        k += len(c.outs)
    return res


def _size(dims):
    n = 1
    for d in dims:
        n *= d
    return n


# ---- comparison ----------------------------------------------------------

_RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _float_bits(a, t):
    """Storage bits of a float array (sub-byte formats masked to their
    width) and the NaN mask."""
    from values import bits
    raw = a.view(_RAW[a.dtype.itemsize]).astype(np.uint64)
    b = bits(t)
    if b < 8:
        raw &= np.uint64((1 << b) - 1)
    with np.errstate(invalid="ignore"):
        return raw, np.isnan(a.astype(np.float64))


def _ordered(raw, b):
    """Sign-magnitude bits mapped onto a monotonic integer line."""
    sign = np.uint64(1 << (b - 1))
    mag = (raw & (sign - np.uint64(1))).astype(np.int64) if b < 64 else \
        (raw & (sign - np.uint64(1))).view(np.int64)
    return np.where((raw & sign) != 0, -mag, mag)


def compare(h, x, t, cmp):
    """Indices where the evaluator's result h differs from XLA's x (flat
    arrays of element type t) under cmp, and how many equal elements were
    NaN-payload mismatches allowed by "nan"."""
    from values import bits
    k = kind(t)
    if k in ("pred", "s", "u"):
        dt = np.uint64 if k == "u" else np.int64
        return np.nonzero(h.astype(dt) != x.astype(dt))[0], 0
    if k == "c":
        part = "f32" if t == "c64" else "f64"
        fd = np.float32 if t == "c64" else np.float64
        hv, xv = h.view(fd), x.view(fd)
        bad, nan = compare(hv, xv, part, cmp)
        return np.unique(bad // 2), nan
    hb, hn = _float_bits(h, t)
    xb, xn = _float_bits(x, t)
    diff = hb != xb
    both_nan = diff & hn & xn
    allowed = np.zeros_like(diff)
    if cmp != "exact":
        allowed |= both_nan
    if isinstance(cmp, tuple) and cmp[0] == "ulp":
        d = np.abs(_ordered(hb, bits(t)) - _ordered(xb, bits(t)))
        allowed |= (d <= cmp[1]) & ~hn & ~xn & np.isfinite(h.astype(np.float64)) & \
            np.isfinite(x.astype(np.float64))
    return np.nonzero(diff & ~allowed)[0], int(np.count_nonzero(both_nan & allowed))


# ---- XLA CPU's denormal mode ---------------------------------------------
# XLA's CPU runtime computes with the x86 flush-to-zero and denormals-are-
# zero modes on (JAX's maintainers: "working as intended", jax-ml/jax#16200;
# --xla_cpu_ftz=false does not change it in jaxlib 0.10.2): f32, f64 and
# bf16 arithmetic (bf16 computes in f32) reads a denormal operand as a zero
# of its sign and writes a denormal result as one. hilo's evaluator, like
# XLA's HloEvaluator (which folds XLA's constants), computes IEEE
# denormals. An arithmetic case (not data movement, where XLA keeps every
# bit) therefore also accepts, element by element, the result that hilo
# computes from denormal-flushed inputs with its result flushed, the
# outcome of the same arithmetic in XLA CPU's mode. Each such element is
# counted and reported ("ftz"); narrower floats compute in f32 where
# their denormals are normal, and f16 results are rounded by a conversion,
# not flushed.

FTZ_TYPES = {"f32": np.float32, "f64": np.float64, "bf16": None, "c64": np.float32,
             "c128": np.float64}


def flush_denormals(a):
    """a with every f32/f64/bf16 denormal (parts of complex numbers too)
    replaced by a zero of its sign; other arrays unchanged."""
    import ml_dtypes
    a = np.asarray(a)
    if a.dtype == np.dtype(ml_dtypes.float8_e8m0fnu):
        # e8m0 computes in f32, where its smallest value 2^-127 (0x00) is
        # a denormal: flushed to 0, which e8m0 holds as its NaN 0xFF
        raw = a.view(np.uint8)
        if not (raw == 0).any():
            return a
        raw = raw.copy()
        raw[raw == 0] = 0xff
        return raw.view(a.dtype)
    if a.dtype.kind == "c":
        part = np.float32 if a.dtype == np.complex64 else np.float64
        v = a.reshape(-1).view(part).copy()
        return flush_denormals(v).view(a.dtype).reshape(a.shape)
    if a.dtype not in (np.dtype(np.float32), np.dtype(np.float64), np.dtype(ml_dtypes.bfloat16)):
        return a
    tiny = float(ml_dtypes.finfo(a.dtype).tiny)
    with np.errstate(invalid="ignore"):
        w = a.astype(np.float64)
        den = (w != 0) & (np.abs(w) < tiny)
    if not den.any():
        return a
    out = a.copy()
    out[den] = np.where(np.signbit(w[den]), -0.0, 0.0).astype(a.dtype)
    return out
