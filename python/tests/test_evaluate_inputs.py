"""Module.evaluate's inputs: narrow floats (bf16, f16, f8, f6, f4) from
float arrays without ml_dtypes, converted bit for bit as the evaluator's
`convert` does, and the strict checks hilo-run --input makes (dtype, shape,
size), each a HiloError naming the parameter.

ml_dtypes is hidden from the package in every test here (even when it is
installed), so the conversion path without it is the one exercised.
"""
import sys

import pytest

import hilo

np = pytest.importorskip("numpy")


@pytest.fixture(autouse=True)
def no_ml_dtypes(monkeypatch):
    """`import ml_dtypes` raises ImportError while a test runs."""
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)


def module(body):
    return hilo.Module.from_text("HloModule t\n\nENTRY e {\n%s\n}\n" % body)


def test_bf16_add_of_floats():
    m = module("  p = bf16[4] parameter(0)\n  ROOT a = bf16[4] add(p, p)")
    (out,) = m.evaluate([np.array([1, 2, 3, .5], np.float32)])
    assert out.dtype == np.uint16                       # documented: raw bits without ml_dtypes
    assert [hex(v) for v in out] == ["0x4000", "0x4080", "0x40c0", "0x3f80"]   # 2 4 6 1
    assert list(hilo.decode_floats(out, "bf16")) == [2, 4, 6, 1]


# Narrow float types the evaluator converts to, and the float sources numpy has.
NARROW = ["bf16", "f16", "f8e5m2", "f8e4m3", "f8e3m4", "f8e4m3fn", "f8e4m3b11fnuz",
          "f8e5m2fnuz", "f8e4m3fnuz", "f8e8m0fnu", "f4e2m1fn", "f6e3m2fn", "f6e2m3fn"]
SOURCES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
UINT = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


def values(ft):
    """Specials, rounding ties and every exponent of ft, then random bit
    patterns (NaNs with payloads and both signs among them)."""
    rng = np.random.default_rng(7)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1 + 2.0 ** -8,
               1 + 3 * 2.0 ** -8, 1 + 2.0 ** -4, 1.125, 1.375, 3.5, 0.75, 0.25,
               448, 464, 480, 57344, 61440, 65504, 65520, 3.4e38, 6.0, 6.5, 7.5, 28, 30,
               2.0 ** -14, 2.0 ** -15, 2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * 1.5, 2.0 ** -127,
               2.0 ** -126, 2.0 ** -133, 1e-45, 2.0 ** -9, 2.0 ** -10, 2.0 ** -17, 1e-300, 1e300,
               1 + 2.0 ** -8 + 2.0 ** -40, 1 + 2.0 ** -11 + 2.0 ** -40]   # f64: two roundings
    with np.errstate(over="ignore"):
        v = np.array(special + [-x for x in special], np.float64).astype(ft)
    ut = UINT[ft]
    bits = rng.integers(0, np.iinfo(ut).max, 4000, dtype=ut, endpoint=True)
    return np.concatenate([v, bits.view(ft)])


@pytest.mark.parametrize("src", sorted(SOURCES))
@pytest.mark.parametrize("t", NARROW)
def test_conversion_matches_the_evaluators_convert(t, src):
    x = values(SOURCES[src])
    n = x.size
    conv = module("  p = %s[%d] parameter(0)\n  ROOT c = %s[%d] convert(p)" % (src, n, t, n))
    ident = module("  ROOT p = %s[%d] parameter(0)" % (t, n))
    (want,) = conv.evaluate([x])
    (got,) = ident.evaluate([x])
    assert want.dtype == got.dtype and want.shape == got.shape == (n,)
    bad = np.nonzero(want.view(np.uint8 if want.itemsize == 1 else np.uint16)
                     != got.view(np.uint8 if got.itemsize == 1 else np.uint16))[0]
    assert bad.size == 0, ["%r -> %#x, convert gives %#x" % (x[k], got.view(np.uint16 if got.itemsize == 2 else np.uint8)[k],
                                                            want.view(np.uint16 if want.itemsize == 2 else np.uint8)[k])
                           for k in bad[:5]]
    # and the helper gives the same bits
    assert (hilo.encode_floats(x, t).tobytes() == got.tobytes())


def test_f16_parameter():
    m = module("  p = f16[3] parameter(0)\n  ROOT a = f16[3] add(p, p)")
    (out,) = m.evaluate([np.array([1, 2.5, -3], np.float16)])
    assert out.dtype == np.float16 and list(out) == [2, 5, -6]
    (out,) = m.evaluate([np.array([1, 2.5, -3], np.float32)])   # rounded as convert does
    assert out.dtype == np.float16 and list(out) == [2, 5, -6]


def test_f8_parameter_from_floats():
    m = module("  p = f8e4m3fn[3] parameter(0)\n  ROOT n = f8e4m3fn[3] negate(p)")
    (out,) = m.evaluate([np.array([1, 448, 0.5], np.float32)])
    assert out.dtype == np.uint8 and [hex(v) for v in out] == ["0xb8", "0xfe", "0xb0"]
    assert list(hilo.decode_floats(out, "f8e4m3fn")) == [-1, -448, -0.5]


def test_raw_bits_still_accepted():
    m = module("  p = bf16[2] parameter(0)\n  ROOT n = bf16[2] negate(p)")
    (out,) = m.evaluate([np.array([0x3f80, 0x4000], np.uint16)])
    assert list(out) == [0xbf80, 0xc000]


def test_lists_convert_when_exact():
    m = module("  p = bf16[2] parameter(0)\n  ROOT n = bf16[2] negate(p)")
    (out,) = m.evaluate([[1, 2.0]])
    assert list(out) == [0xbf80, 0xc000]
    m = module("  p = s32[2] parameter(0)\n  ROOT n = s32[2] negate(p)")
    with pytest.raises(hilo.HiloError, match="parameter 0 'p'.*s32"):
        m.evaluate([[1.5, 2]])


@pytest.mark.parametrize("body,arr,msg", [
    ("  ROOT p = f32[4] parameter(0)", np.zeros(4, np.float64),
     r"parameter 0 'p' \(f32\[4\]\): the array holds float64 elements, the parameter is f32"),
    ("  ROOT p = f32[1,8] parameter(0)", np.zeros((8, 1), np.float32),
     r"parameter 0 'p' \(f32\[1,8\]\): the array has shape \(8, 1\), the parameter is f32\[1,8\]"),
    ("  ROOT p = f32[4] parameter(0)", np.zeros(5, np.float32),
     r"parameter 0 'p' \(f32\[4\]\): the array has shape \(5,\)"),
    ("  ROOT p = bf16[2] parameter(0)", np.zeros(2, np.int32),
     r"parameter 0 'p' \(bf16\[2\]\): the array holds int32 elements"),
    ("  ROOT p = bf16[2] parameter(0)", np.zeros(2, np.complex64),
     r"parameter 0 'p' \(bf16\[2\]\): the array holds complex64 elements"),
    ("  ROOT p = s32[2] parameter(0)", np.zeros(2, np.int64),
     r"parameter 0 'p' \(s32\[2\]\): the array holds int64 elements"),
    ("  ROOT p = f16[2] parameter(0)", np.array(["a", "b"]),
     r"parameter 0 'p' \(f16\[2\]\): the array holds <U1 elements"),
])
def test_strict_inputs(body, arr, msg):
    with pytest.raises(hilo.HiloError, match=msg):
        module(body).evaluate([arr])


def test_second_parameter_named():
    m = module("  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n  ROOT s = f32[2] add(a, b)")
    with pytest.raises(hilo.HiloError, match=r"parameter 1 'b' \(f32\[2\]\): the array has shape \(3,\)"):
        m.evaluate([np.zeros(2, np.float32), np.zeros(3, np.float32)])
