"""hilo: XLA HLO graph passes from Python.

A thin ctypes layer over libhilo's flat C API (include/hilo/capi.h); it
needs nothing but the shared library. numpy is optional and used only by
Module.evaluate.

    import hilo
    m = hilo.Module.load("model.hlo")            # HLO text or HloModuleProto
    res = m.run_passes(["slice-of-concat-optimizer", "dce"],
                       verify_each=True, check_equivalence=True)
    print(res.stats, res.remarks, res.equivalence)
    print(m.to_text())

The library is found, in order: $HILO_LIBRARY (a path to libhilo.so),
libhilo.so next to this file (a bundled copy), the build tree of a source
checkout (../build/libhilo.so), the lib folder of the install prefix this
package lies under (`pip install --prefix P` beside `cmake --install
--prefix P`: P/lib, P/lib64, P/lib/<multiarch>), then the system's search
path (ldconfig).
Errors raise HiloError; its message holds the located diagnostics
("file:line:col: error: ...").
"""
import ctypes
import json
import os

from . import _floats

__all__ = ["HiloError", "Module", "RunResult", "list_passes", "pipelines", "encode_floats",
           "decode_floats", "__version__"]


class HiloError(Exception):
    """An error reported by libhilo (its message holds the diagnostics)."""


def _prefix_libraries(here):
    """libhilo in the lib folders of the install prefix this package lies
    under (P/lib/pythonX.Y/site-packages/hilo: P/lib, P/lib64,
    P/lib/<multiarch>), where `cmake --install --prefix P` puts it."""
    import sysconfig
    d = here
    while True:
        up = os.path.dirname(d)
        if up == d:
            return []
        if os.path.basename(d) in ("lib", "lib64"):
            break
        d = up
    prefix = os.path.dirname(d)
    dirs = [os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")]
    arch = sysconfig.get_config_var("MULTIARCH")
    if arch:
        dirs.append(os.path.join(prefix, "lib", arch))
    return [os.path.join(p, n) for p in dirs for n in ("libhilo.so", "libhilo.so.0")]


def _find_library():
    env = os.environ.get("HILO_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "libhilo.so")]
    candidates.append(os.path.join(here, "..", "..", "build", "libhilo.so"))
    candidates += _prefix_libraries(here)
    for c in candidates:
        if os.path.exists(c):
            return os.path.normpath(c)
    import ctypes.util
    found = ctypes.util.find_library("hilo")
    if found:
        return found
    return "libhilo.so.0"


def _load():
    path = _find_library()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(
            "hilo: cannot load libhilo (%s): %s; set HILO_LIBRARY to the path of libhilo.so"
            % (path, e)) from None
    P, S, U64 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint64
    err = ctypes.POINTER(ctypes.c_void_p)
    sigs = {
        "hilo_version": (P, []),
        "hilo_free": (None, [P]),
        "hilo_handle_from_text": (P, [ctypes.c_char_p, S, ctypes.c_char_p, err]),
        "hilo_handle_from_proto": (P, [ctypes.c_char_p, S, ctypes.c_char_p, err]),
        "hilo_handle_load": (P, [ctypes.c_char_p, err]),
        "hilo_handle_free": (None, [P]),
        "hilo_handle_to_text": (P, [P, ctypes.c_char_p, err]),
        "hilo_handle_to_proto": (P, [P, ctypes.POINTER(S), err]),
        "hilo_passes_json": (P, []),
        "hilo_pipelines_json": (P, []),
        "hilo_handle_run_passes": (P, [P, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                       ctypes.c_int, U64, err]),
        "hilo_handle_signature_json": (P, [P]),
        "hilo_handle_evaluate": (ctypes.c_int, [P, S, ctypes.POINTER(P), ctypes.POINTER(S),
                                                U64, U64, err]),
        "hilo_handle_output": (P, [P, S, ctypes.POINTER(S), ctypes.POINTER(ctypes.c_void_p)]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


_lib = _load()


def _take_string(p):
    """Copies a malloc'd C string and frees it."""
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode("utf-8", "replace")
    finally:
        _lib.hilo_free(p)


def _call(fn, *args):
    """Calls fn(*args, &error); raises HiloError when it returns NULL."""
    e = ctypes.c_void_p()
    r = fn(*args, ctypes.byref(e))
    if not r:
        msg = _take_string(e.value) or "hilo: unknown error"
        raise HiloError(msg.rstrip("\n"))
    return r


__version__ = ctypes.string_at(_lib.hilo_version()).decode()


def list_passes(all=False):
    """[{"name", "description", "test_only", "aliases"}] for every pass a user
    runs, as `hilo-opt --list-passes` shows them. all=True adds the
    deliberately unsound test passes (test_only: True; `--list-passes --all`),
    which Module.run_passes runs only with test_passes=True."""
    passes = json.loads(_take_string(_lib.hilo_passes_json()))
    return passes if all else [p for p in passes if not p.get("test_only")]


def _test_pass_names():
    """Names and aliases of the test-only passes this library registers."""
    names = set()
    for p in list_passes(all=True):
        if p.get("test_only"):
            names.add(p["name"])
            names.update(p.get("aliases", []))
    return names


def pipelines():
    """{"neuron": [pass names...]}"""
    return json.loads(_take_string(_lib.hilo_pipelines_json()))


class RunResult:
    """What Module.run_passes returns: per-pass stats, remarks and the
    equivalence verdicts (None when no check was asked for)."""

    def __init__(self, d):
        self.stats = d["passes"]
        self.remarks = d["remarks"]
        self.equivalence = d["equivalence"]

    def __repr__(self):
        return "RunResult(stats=%r, remarks=%d, equivalence=%r)" % (
            self.stats, len(self.remarks), self.equivalence)


# numpy dtype names for HLO element types numpy has
_NP = {"pred": "bool", "s8": "int8", "s16": "int16", "s32": "int32", "s64": "int64",
       "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
       "f16": "float16", "f32": "float32", "f64": "float64",
       "c64": "complex64", "c128": "complex128"}
# ml_dtypes names; without ml_dtypes these come back as raw unsigned views
_ML = {"bf16": ("bfloat16", "uint16"), "f8e5m2": ("float8_e5m2", "uint8"),
       "f8e4m3fn": ("float8_e4m3fn", "uint8"), "f8e4m3": ("float8_e4m3", "uint8"),
       "f8e4m3b11fnuz": ("float8_e4m3b11fnuz", "uint8"), "f8e5m2fnuz": ("float8_e5m2fnuz", "uint8"),
       "f8e4m3fnuz": ("float8_e4m3fnuz", "uint8"), "f8e3m4": ("float8_e3m4", "uint8"),
       "f8e8m0fnu": ("float8_e8m0fnu", "uint8"), "f4e2m1fn": ("float4_e2m1fn", "uint8"),
       "f6e3m2fn": ("float6_e3m2fn", "uint8"), "f6e2m3fn": ("float6_e2m3fn", "uint8"),
       "s4": ("int4", "int8"), "u4": ("uint4", "uint8"), "s2": ("int2", "int8"),
       "u2": ("uint2", "uint8"), "s1": (None, "int8"), "u1": (None, "uint8")}


def _ml_dtype(np, name):
    """The ml_dtypes dtype of an HLO type numpy lacks, or None."""
    ml = _ML.get(name, (None, None))[0]
    if not ml:
        return None
    try:
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, ml))
    except (ImportError, AttributeError):
        return None


def _np_dtype(np, name):
    if name in _NP:
        return np.dtype(_NP[name])
    raw = _ML.get(name, (None, None))[1]
    if raw is None:
        raise HiloError("hilo: element type %s has no numpy equivalent" % name)
    return _ml_dtype(np, name) or np.dtype(raw)


def encode_floats(values, dtype):
    """The raw bits (uint16 for f16/bf16, uint8 for f8/f6/f4) of float
    values converted to HLO type dtype as the evaluator's `convert` does:
    round to nearest even, with the format's inf/NaN/saturation rules; a
    float64 array reaches f16/bf16 through float32 (Eigen's constructors).
    Needs no ml_dtypes."""
    import numpy as np
    if dtype not in _floats.FORMATS:
        raise HiloError("hilo: %s is not a narrow float type (%s)"
                        % (dtype, ", ".join(_floats.FORMATS)))
    v = np.asarray(values)
    if v.dtype.kind != "f" or v.dtype.itemsize > 8:
        raise HiloError("hilo: encode_floats takes a float array, not %s" % v.dtype)
    if v.dtype == np.float16 and dtype == "f16":
        return v.view(np.uint16).copy()         # convert to its own type: every bit kept
    with np.errstate(all="ignore"):
        if v.dtype == np.float64 and dtype in ("f16", "bf16"):
            v = np.where(np.isnan(v), v, v.astype(np.float32))
        v = v.astype(np.float64)
    return _floats.encode(np, v, dtype)


def decode_floats(bits, dtype):
    """The exact values (float64) of raw bits of narrow float type dtype,
    as returned by evaluate without ml_dtypes."""
    import numpy as np
    if dtype not in _floats.FORMATS:
        raise HiloError("hilo: %s is not a narrow float type" % dtype)
    return _floats.decode(np, bits, dtype)


def _shape_str(p):
    return "%s[%s]" % (p["dtype"], ",".join(str(d) for d in p["dims"]))


def _input(np, a, k, p):
    """Input a for parameter k (signature entry p) as a C-contiguous array
    of the parameter's storage, checked as hilo-run --input checks a file:
    the exact shape, and the parameter's dtype (a numpy array of another
    dtype is refused, not cast), except that a narrow float parameter (f16,
    bf16, f8, f6, f4) also takes a float array, rounded as `convert` does,
    and its raw unsigned view. Lists and scalars are converted when every
    value survives the conversion."""
    t = p["dtype"]
    where = "hilo: parameter %d%s (%s)" % (k, " '%s'" % p["name"] if p.get("name") else "",
                                           _shape_str(p))
    given = a if isinstance(a, np.ndarray) else None
    try:
        arr = np.asarray(a)
    except Exception as e:                      # ragged lists and the like
        raise HiloError("%s: cannot make an array of the input: %s" % (where, e)) from None
    dims = tuple(p["dims"])
    if arr.shape != dims:
        raise HiloError("%s: the array has shape %s, the parameter is %s"
                        % (where, arr.shape, _shape_str(p)))
    want = _np_dtype(np, t)
    if arr.dtype == want:
        return np.ascontiguousarray(arr)
    narrow = t in _floats.FORMATS
    if narrow and arr.dtype.kind in "fiub" and given is None:
        arr = arr.astype(np.float64)            # a list or scalar: its values as floats
    if narrow and arr.dtype.kind == "f":
        bits = encode_floats(arr, t)
        return np.ascontiguousarray(bits.view(want) if want.itemsize == bits.itemsize else bits)
    raw = np.dtype(_ML[t][1]) if t in _ML else None
    if raw is not None and arr.dtype == raw:    # the raw bits, as hilo-run writes them
        return np.ascontiguousarray(arr)
    if given is None and arr.dtype.kind in "fiub" and want.kind in "fiub":
        with np.errstate(all="ignore"):
            conv = arr.astype(want)
            exact = np.array_equal(conv.astype(arr.dtype), arr, equal_nan=arr.dtype.kind == "f")
        if exact:
            return np.ascontiguousarray(conv)
        raise HiloError("%s: the values do not all convert exactly to %s" % (where, t))
    accepted = [str(want)] + ([str(raw)] if raw is not None and raw != want else []) + \
        (["a float array (rounded as convert does)"] if narrow else [])
    raise HiloError("%s: the array holds %s elements, the parameter is %s (pass %s)"
                    % (where, arr.dtype.str if arr.dtype.kind in "USVO" else arr.dtype, t,
                       " or ".join(accepted)))


class Module:
    """One HLO module, owned by libhilo. Create it with Module.load,
    Module.from_text or Module.from_proto."""

    def __init__(self, handle):
        self._h = handle

    def __del__(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            _lib.hilo_handle_free(h)

    @classmethod
    def load(cls, path):
        """Reads HLO text or a binary HloModuleProto (detected from content)."""
        return cls(_call(_lib.hilo_handle_load, os.fsencode(path)))

    @classmethod
    def from_text(cls, text, filename="<text>"):
        b = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        return cls(_call(_lib.hilo_handle_from_text, b, len(b), filename.encode()))

    @classmethod
    def from_proto(cls, data, filename="<proto>"):
        b = bytes(data)
        return cls(_call(_lib.hilo_handle_from_proto, b, len(b), filename.encode()))

    def to_text(self, style="auto"):
        """The module as HLO text: "auto" (the input's style), "default",
        "long" or "short"."""
        return _take_string(_call(_lib.hilo_handle_to_text, self._h, style.encode()))

    def to_proto(self):
        """The module as binary HloModuleProto bytes."""
        n = ctypes.c_size_t()
        p = _call(_lib.hilo_handle_to_proto, self._h, ctypes.byref(n))
        try:
            return ctypes.string_at(p, n.value)
        finally:
            _lib.hilo_free(p)

    def __str__(self):
        return self.to_text()

    def run_passes(self, passes, verify_each=False, check_equivalence=False, inputs=3, seed=0,
                   test_passes=False):
        """Runs the named passes (a list, or "pipeline:neuron" among them).
        A deliberately unsound test pass (list_passes(all=True)) runs only
        with test_passes=True; otherwise it raises HiloError.
        check_equivalence: False, True (every rewrite validated on its own
        region: "rewrites"), "strict" (a skipped rewrite fails too) or
        "module" (the whole entry computation on random inputs). The module changes only when everything
        succeeds; any failure raises HiloError and leaves it as it was."""
        if isinstance(passes, str):
            passes = [passes]
        if not test_passes:
            unsound = [p for p in passes if p in _test_pass_names()]
            if unsound:
                raise HiloError("pass '%s' is a deliberately unsound test pass: "
                                "run_passes(..., test_passes=True) runs it" % unsound[0])
        mode = ""
        if check_equivalence is True:
            mode = "rewrites"
        elif check_equivalence:
            mode = str(check_equivalence)
        r = _call(_lib.hilo_handle_run_passes, self._h, ",".join(passes).encode(),
                  1 if verify_each else 0, mode.encode(), int(inputs), int(seed))
        return RunResult(json.loads(_take_string(r)))

    def signature(self):
        """{"parameters": [{"dtype","dims","bytes"}...], "outputs": [...]}"""
        return json.loads(_take_string(_lib.hilo_handle_signature_json(self._h)))

    def evaluate(self, inputs=None, seed=0, budget=0):
        """Evaluates the entry computation with hilo's reference evaluator.
        inputs: a list of arrays, one per parameter, or None for seeded
        random inputs. Each must have the parameter's exact shape and dtype
        (as hilo-run --input checks a file): a numpy array of another dtype
        is refused, not cast. A narrow float parameter (f16, bf16, f8, f6,
        f4) also takes a float16/float32/float64 array, rounded to nearest
        even exactly as the evaluator's `convert` from that type does (no
        ml_dtypes needed), or its raw bits (uint16 for bf16, uint8 for f8).
        Lists and scalars are converted when every value converts exactly.
        Anything else raises HiloError naming the parameter.
        Returns a list of numpy arrays, one per output (tuple leaves in
        order). bf16/f8/f6/f4/sub-byte outputs use ml_dtypes when it is
        installed, else raw unsigned views of the same storage (uint16 for
        bf16, uint8 for f8/f6/f4 and u4/u2/u1, int8 for s4/s2/s1);
        hilo.decode_floats(out, dtype) gives their values."""
        import numpy as np
        sig = self.signature()
        keep = []
        if inputs is None:
            n, ptrs, sizes = 0, None, None
        else:
            inputs = list(inputs)
            if len(inputs) != len(sig["parameters"]):
                raise HiloError("hilo: %d inputs given, the entry computation takes %d"
                                % (len(inputs), len(sig["parameters"])))
            n = len(inputs)
            ptrs = (ctypes.c_void_p * n)()
            sizes = (ctypes.c_size_t * n)()
            for k, (a, p) in enumerate(zip(inputs, sig["parameters"])):
                if p is None:
                    raise HiloError("hilo: parameter %d is missing" % k)
                arr = _input(np, a, k, p)
                keep.append(arr)
                ptrs[k] = arr.ctypes.data
                sizes[k] = arr.nbytes
        e = ctypes.c_void_p()
        nout = _lib.hilo_handle_evaluate(self._h, n, ptrs, sizes, int(seed), int(budget),
                                         ctypes.byref(e))
        if nout < 0:
            raise HiloError((_take_string(e.value) or "hilo: evaluation failed").rstrip("\n"))
        outs = []
        for k in range(nout):
            ln = ctypes.c_size_t()
            js = ctypes.c_void_p()
            p = _lib.hilo_handle_output(self._h, k, ctypes.byref(ln), ctypes.byref(js))
            info = json.loads(_take_string(js.value))
            raw = ctypes.string_at(p, ln.value)
            dt = _np_dtype(np, info["dtype"])
            outs.append(np.frombuffer(raw, dtype=dt).reshape(info["dims"]).copy())
        return outs
