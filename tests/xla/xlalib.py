"""tests/xla/xlalib.py: the one helper module of the XLA tier.

Every sub-tier (tests/xla/<name>/run.py) imports this module and nothing
else of the tier, so that how XLA is called, how inputs are drawn, how
outputs are compared and how a hilo tool is run exist once.

XLA side (jax/jaxlib 0.10.2, checked against that release):
  parse       jax._src.lib.hlo.hlo_module_from_text(text)
  print       module.to_string(HloPrintOptions.short_parsable()) / to_string()
  proto       module.as_serialized_hlo_module_proto(),
              HloModule.from_serialized_hlo_module_proto(bytes)
  run (CPU)   jax._src.lib._jax.mlir.hlo_to_stablehlo(proto) -> bytecode,
              jax.extend.backend.get_backend("cpu").compile_and_load(bc, [dev]),
              executable.execute([device_put(x) ...]) with x64 enabled.
              hlo_to_stablehlo flattens tuple parameters and the result
              tuple into leaves and drops layouts, so inputs and outputs are
              lists of arrays in leaf order.

XLA runs in a worker process (class Xla): a CHECK failure or a hang inside
XLA then costs one case (reported as a failure naming the crash or the
time-out), not the whole tier, and the worker is started again.

Protocol of a sub-tier (README.md beside this file): `PY run.py --build B
--shared S --result R.json [--cases=N]`, JSON {"tier","passed","total",
"failures","skipped"}, exit 0 all pass, 1 differences, 77 skipped.
"""

import argparse
import hashlib
import json
import os
import pickle
import re
import select
import struct
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# ---------------------------------------------------------------------------
# XLA, in this process (used by the worker; callable directly where a crash
# may take the caller down with it)
# ---------------------------------------------------------------------------

_jax = None


def jax_modules():
    """Import jax once with x64 on; returns (jax, hlo, _jax_ext, backend)."""
    global _jax
    if _jax is None:
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.extend  # noqa: F401  (jax.extend is not imported by jax)
        from jax._src.lib import hlo, _jax as jext
        backend = jax.extend.backend.get_backend("cpu")
        _jax = (jax, hlo, jext, backend)
    return _jax


def _described(module):
    """What the parse functions return for a module XLA accepted: its short
    print, its default print (HloModule::ToString), the default print with
    large constants in full ("full"), and its proto."""
    _, hlo, _, _ = jax_modules()
    full = hlo.HloPrintOptions()
    full.print_large_constants = True
    return {
        "ok": True,
        "error": None,
        "short": module.to_string(hlo.HloPrintOptions.short_parsable()),
        "default": module.to_string(),
        "full": module.to_string(full),
        "proto": module.as_serialized_hlo_module_proto(),
    }


def xla_parse_text(text):
    """XLA's parser on HLO text: {ok, error, short, default, full, proto}."""
    _, hlo, _, _ = jax_modules()
    try:
        module = hlo.hlo_module_from_text(text)
    except Exception as e:  # XLA reports a status as an exception
        return {"ok": False, "error": str(e)}
    return _described(module)


def xla_parse_proto(data):
    """XLA's reader on a binary HloModuleProto: {ok, error, short, default, full, proto}."""
    _, hlo, _, _ = jax_modules()
    try:
        module = hlo.HloModule.from_serialized_hlo_module_proto(data)
    except Exception as e:
        return {"ok": False, "error": str(e)}
    return _described(module)


def _module_proto(module):
    """Proto bytes of `module`, given as HLO text (str) or proto (bytes)."""
    _, hlo, _, _ = jax_modules()
    if isinstance(module, str):
        return hlo.hlo_module_from_text(module).as_serialized_hlo_module_proto()
    return module


def _leaves(shape):
    if shape.is_tuple():
        out = []
        for s in shape.tuple_shapes():
            out.extend(_leaves(s))
        return out
    return [shape]


def xla_signature(module):
    """The entry's parameter leaves and result leaves as (type, dims) lists,
    in the order hlo_to_stablehlo flattens them. type is hilo's name (f32)."""
    _, hlo, _, _ = jax_modules()
    ps = hlo.XlaComputation(_module_proto(module)).program_shape()

    def desc(s):
        if s.is_token():
            return ("token", ())
        return (type_name(np.dtype(s.numpy_dtype())), tuple(s.dimensions()))

    params = [desc(l) for p in ps.parameter_shapes() for l in _leaves(p)]
    results = [desc(l) for l in _leaves(ps.result_shape())]
    return params, results


def xla_compile(module):
    """Compile `module` (text or proto) for the CPU: the loaded executable."""
    _, _, jext, backend = jax_modules()
    bytecode = jext.mlir.hlo_to_stablehlo(_module_proto(module))
    return backend.compile_and_load(bytecode, backend.local_devices()[:1])


def xla_compile_error(module):
    """None when `module` compiles for the CPU, else XLA's message."""
    try:
        xla_compile(module)
    except Exception as e:
        return str(e).strip()[:3000]
    return None


def xla_execute(exe, inputs):
    """Run a compiled executable on numpy inputs: the outputs as numpy arrays."""
    jax, _, _, backend = jax_modules()
    dev = backend.local_devices()[0]
    outs = exe.execute([jax.device_put(x, dev) for x in inputs])
    return [np.asarray(o) for o in outs]


def xla_run(module, seed=0, inputs=None):
    """Compile and run `module` on the CPU, on `inputs` or on inputs drawn
    from `seed` for its signature: {ok, error, stage, inputs, outputs}."""
    stage = "signature"
    try:
        params, _ = xla_signature(module)
        if inputs is None:
            if any(t == "token" for t, _ in params):
                return {"ok": False, "stage": stage, "error": "token parameter"}
            inputs = make_inputs(params, seed)
        stage = "compile"
        exe = xla_compile(module)
        stage = "execute"
        outputs = xla_execute(exe, inputs)
    except Exception as e:
        return {"ok": False, "stage": stage, "error": str(e).strip()[:2000]}
    return {"ok": True, "error": None, "stage": "done", "inputs": inputs, "outputs": outputs}


# ---------------------------------------------------------------------------
# The worker process
# ---------------------------------------------------------------------------

def _resolve(name):
    """'func' (in this module) or 'pkg.module:func' (a sub-tier's own)."""
    if ":" in name:
        modname, func = name.split(":", 1)
        import importlib
        return getattr(importlib.import_module(modname), func)
    return globals()[name]


def _send(fd, obj):
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    data = struct.pack("<Q", len(data)) + data
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _recv_exact(fd, n):
    chunks = []
    while n:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            raise EOFError
        chunks.append(b)
        n -= len(b)
    return b"".join(chunks)


def _recv(fd):
    (n,) = struct.unpack("<Q", _recv_exact(fd, 8))
    return pickle.loads(_recv_exact(fd, n))


def _worker_main(rfd, wfd):
    """The worker's loop: (name, args, kwargs) in, ("ok"|"exc", value) out,
    on two pipes of their own (XLA may write to stdout and stderr)."""
    while True:
        try:
            req = _recv(rfd)
        except EOFError:
            return
        if req is None:
            return
        name, args, kwargs = req
        try:
            res = ("ok", _resolve(name)(*args, **kwargs))
        except Exception:
            res = ("exc", traceback.format_exc(limit=6))
        _send(wfd, res)


class XlaCrash(Exception):
    """The worker died (XLA aborted) or timed out on a request."""


class Xla:
    """A worker process running XLA (this file run as `--worker`, with the
    same python). call() returns what the function returned; a crash or
    time-out raises XlaCrash and the next call starts a new worker. The
    convenience methods turn a crash into {ok: False, stage: crash, error}."""

    def __init__(self, devices=1, timeout=120.0):
        self.devices = devices
        self.timeout = timeout
        self.proc = None
        self.restarts = 0

    def _start(self):
        to_child_r, to_child_w = os.pipe()
        to_parent_r, to_parent_w = os.pipe()
        env = dict(os.environ)
        if self.devices > 1:
            env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                                " --xla_force_host_platform_device_count=%d" % self.devices).strip()
        env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in sys.path if p])
        self.errlog = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--worker", str(to_child_r), str(to_parent_w)],
            pass_fds=(to_child_r, to_parent_w), stdin=subprocess.DEVNULL,
            stdout=self.errlog, stderr=self.errlog, env=env)
        os.close(to_child_r)
        os.close(to_parent_w)
        self.wfd, self.rfd = to_child_w, to_parent_r

    def _kill(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            os.close(self.wfd)
            os.close(self.rfd)
        self.proc = None

    def _tail(self):
        try:
            self.errlog.seek(0)
            lines = self.errlog.read().decode("utf-8", "replace").strip().splitlines()
            return " | ".join(lines[-3:])[-600:]
        except (OSError, ValueError):
            return ""

    def call(self, name, *args, timeout=None, **kwargs):
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                self._kill()
            self._start()
        limit = self.timeout if timeout is None else timeout
        try:
            _send(self.wfd, (name, args, kwargs))
            ready, _, _ = select.select([self.rfd], [], [], limit)
            if not ready:
                self._kill()
                self.restarts += 1
                raise XlaCrash("XLA timed out after %.0f s in %s" % (limit, name))
            kind, value = _recv(self.rfd)
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self.proc.wait()
            code = self.proc.returncode
            tail = self._tail()
            self._kill()
            self.restarts += 1
            raise XlaCrash("XLA crashed in %s (exit %s)%s" % (name, code, ": " + tail if tail else ""))
        if kind == "exc":
            raise RuntimeError("%s raised in the XLA worker:\n%s" % (name, value))
        return value

    def _safe(self, name, *args, timeout=None, **kwargs):
        try:
            return self.call(name, *args, timeout=timeout, **kwargs)
        except XlaCrash as e:
            return {"ok": False, "stage": "crash", "error": str(e)}

    def parse_text(self, text, timeout=None):
        return self._safe("xla_parse_text", text, timeout=timeout)

    def parse_proto(self, data, timeout=None):
        return self._safe("xla_parse_proto", data, timeout=timeout)

    def run(self, module, seed=0, inputs=None, timeout=None):
        return self._safe("xla_run", module, seed=seed, inputs=inputs, timeout=timeout)

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                _send(self.wfd, None)
                self.proc.wait(10)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---------------------------------------------------------------------------
# Element types and seeded inputs with special values
# ---------------------------------------------------------------------------

def _ml():
    import ml_dtypes
    return ml_dtypes


def dtype_of(name):
    """numpy dtype of an HLO element type name (pred, s4, bf16, f8e4m3fn, c64 ...)."""
    ml = _ml()
    table = {
        "pred": np.bool_, "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
        "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
        "f16": np.float16, "f32": np.float32, "f64": np.float64,
        "c64": np.complex64, "c128": np.complex128,
        "s1": ml.int1, "s2": ml.int2, "s4": ml.int4, "u1": ml.uint1, "u2": ml.uint2, "u4": ml.uint4,
        "bf16": ml.bfloat16, "f8e5m2": ml.float8_e5m2, "f8e4m3": ml.float8_e4m3,
        "f8e4m3fn": ml.float8_e4m3fn, "f8e4m3b11fnuz": ml.float8_e4m3b11fnuz,
        "f8e5m2fnuz": ml.float8_e5m2fnuz, "f8e4m3fnuz": ml.float8_e4m3fnuz,
        "f8e3m4": ml.float8_e3m4, "f8e8m0fnu": ml.float8_e8m0fnu, "f4e2m1fn": ml.float4_e2m1fn,
    }
    return np.dtype(table[name])


def type_name(dtype):
    """HLO element type name of a numpy dtype (inverse of dtype_of)."""
    dtype = np.dtype(dtype)
    for name in ("pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "f32",
                 "f64", "c64", "c128", "s1", "s2", "s4", "u1", "u2", "u4", "bf16", "f8e5m2",
                 "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "f8e3m4",
                 "f8e8m0fnu", "f4e2m1fn"):
        if dtype_of(name) == dtype:
            return name
    raise KeyError("no HLO type for %s" % dtype)


_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bits(dtype):
    """Width in bits of one element (int4 and friends are stored in a byte)."""
    name = type_name(dtype)
    m = re.match(r"[su](\d+)$", name)
    if m:
        return int(m.group(1))
    if name == "f4e2m1fn":
        return 4
    return np.dtype(dtype).itemsize * 8


def special_values(dtype):
    """The values every input of this type should meet, as an array of it:
    for floats +-0, +-inf, quiet, signalling, payload and negative NaNs,
    the smallest and largest denormal, the smallest normal, the largest
    finite, +-1; for integers 0, +-1, MIN, MAX; for complex the pairs."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array([False, True])
    if dtype.kind == "c":
        part = special_values(np.float32 if dtype == np.complex64 else np.float64)
        re_, im = np.meshgrid(part[::2], part[1::2])
        return (re_.ravel() + 1j * im.ravel()).astype(dtype)
    name = type_name(dtype)
    if name[0] in "su" and name[1:].isdigit():
        info = _ml().iinfo(dtype) if name in ("s1", "s2", "s4", "u1", "u2", "u4") else np.iinfo(dtype)
        vals = {0, 1, info.min, info.max, info.max - 1, info.min + 1}
        if info.min < 0:
            vals.add(-1)
        vals = [v for v in sorted(vals) if info.min <= v <= info.max]
        return np.array([v & ((1 << 64) - 1) for v in vals], dtype=np.uint64).astype(dtype) \
            if info.min >= 0 else np.array(vals, dtype=np.int64).astype(dtype)
    # floats: build the specials from bit patterns, for every width.
    width = _bits(dtype)
    store = _UINT[dtype.itemsize]
    fi = _ml().finfo(dtype)
    mant = int(fi.nmant)
    exp_bits = width - 1 - mant if name != "f8e8m0fnu" else 8
    pats = set()
    for v in (0.0, 1.0, -1.0, float(fi.max), -float(fi.max), float(fi.tiny), float(fi.smallest_subnormal)):
        with np.errstate(all="ignore"):
            pats.add(int(np.array(v, dtype=dtype).view(store)))
    if name != "f8e8m0fnu":
        sign = 1 << (width - 1)
        pats.add(sign)                                   # -0 (NaN in fnuz types)
        pats.add((1 << mant) - 1)                        # largest denormal
        pats.add(1)                                      # smallest denormal
        top = ((1 << exp_bits) - 1) << mant              # exponent all ones
        for m in (0, 1, 1 << (mant - 1) if mant else 0, (1 << mant) - 1, (1 << (mant - 1)) | 5 if mant > 2 else 0):
            pats.add(top | m)                            # inf, sNaN, qNaN, max-payload NaN, payload qNaN
            pats.add(sign | top | m)                     # the negative ones
    else:
        pats.update({0x00, 0x01, 0x7f, 0xfe, 0xff})
    mask = (1 << width) - 1
    pats = sorted(p & mask for p in pats)
    return np.array(pats, dtype=store).view(dtype)


def random_values(dtype, count, rng):
    """`count` seeded values of `dtype`: a third specials, a third random bit
    patterns (full mantissas, any NaN), a third ordinary magnitudes."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, count).astype(np.bool_)
    if dtype.kind == "c":
        part = np.float32 if dtype == np.complex64 else np.float64
        return (random_values(part, count, rng) + 1j * random_values(part, count, rng)).astype(dtype)
    specials = special_values(dtype)
    width = _bits(dtype)
    store = _UINT[dtype.itemsize]
    raw = rng.integers(0, 1 << min(width, 63), count, dtype=np.uint64, endpoint=False)
    if width == 64:
        raw = raw | (rng.integers(0, 2, count, dtype=np.uint64) << np.uint64(63))
    bits = raw.astype(store).view(dtype)
    name = type_name(dtype)
    if name[0] in "su" and name[1:].isdigit():
        if width < 8:  # sign-extend the narrow signed types stored in a byte
            v = raw.astype(np.int64)
            if name[0] == "s":
                v = np.where(v >= (1 << (width - 1)), v - (1 << width), v)
            bits = v.astype(dtype)
        small = rng.integers(-8 if name[0] == "s" else 0, 9, count).astype(dtype)
    else:
        with np.errstate(all="ignore"):
            small = (rng.standard_normal(count) * 4.0).astype(dtype)
    choice = rng.integers(0, 3, count)
    pick = specials[rng.integers(0, len(specials), count)]
    out = np.where(choice == 0, pick, np.where(choice == 1, bits, small)).astype(dtype)
    # an array that can hold them all starts with every special, from a
    # seeded offset; a smaller one (a scalar index, say) keeps the mixture,
    # so it also meets ordinary small values
    if count >= len(specials):
        start = int(rng.integers(0, len(specials)))
        out[:len(specials)] = np.roll(specials, -start)
    return out


def make_inputs(params, seed):
    """Seeded inputs for a signature [(type, dims)]: the same seed gives the
    same arrays, so a module before and after a pass meet the same inputs."""
    out = []
    for i, (t, dims) in enumerate(params):
        rng = np.random.default_rng([seed, i, sum(dims) & 0xffff])
        n = int(np.prod(dims)) if dims else 1
        vals = random_values(dtype_of(t), n, rng)
        out.append(vals.reshape(dims))
    return out


# ---------------------------------------------------------------------------
# Bitwise comparison
# ---------------------------------------------------------------------------

def _as_bits(a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.bool_:
        return a.view(np.uint8)
    if a.dtype.kind == "c":
        part = np.float32 if a.dtype == np.complex64 else np.float64
        return _as_bits(a.view(part))
    return a.view(_UINT[a.dtype.itemsize])


def compare_bits(want, got, what="output"):
    """None when the two lists of arrays are bit for bit the same (NaN bits
    included), else a one-line description of the first difference."""
    if len(want) != len(got):
        return "%s count %d != %d" % (what, len(want), len(got))
    for i, (a, b) in enumerate(zip(want, got)):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return "%s %d: %s%s != %s%s" % (what, i, a.dtype, list(a.shape), b.dtype, list(b.shape))
        ab, bb = _as_bits(a).ravel(), _as_bits(b).ravel()
        diff = np.nonzero(ab != bb)[0]
        if len(diff):
            j = int(diff[0])
            idx = np.unravel_index(j, a.shape) if a.shape else ()
            return "%s %d: %d of %d elements differ, first at %s: %r (0x%x) != %r (0x%x)" % (
                what, i, len(diff), ab.size, list(map(int, idx)), a.ravel()[j], int(ab[j]),
                b.ravel()[j], int(bb[j]))
    return None


def _flushed(a):
    """Float arrays with denormals replaced by a zero of the same sign (what
    XLA CPU's flush-to-zero makes of them)."""
    a = np.asarray(a)
    if a.dtype.kind == "c":
        part = np.float32 if a.dtype == np.complex64 else np.float64
        return _flushed(a.view(part)).view(a.dtype)
    try:
        fi = _ml().finfo(a.dtype)
    except (ValueError, TypeError):
        return a
    with np.errstate(all="ignore"):
        tiny = np.abs(a.astype(np.float64)) < float(fi.tiny)
        zero = np.where(np.signbit(a.astype(np.float64)), -0.0, 0.0).astype(a.dtype)
        return np.where(tiny & (a.astype(np.float64) != 0), zero, a)


def compare_modulo_xla(want, got, nsz=False):
    """None when the outputs agree once two freedoms of XLA's CPU backend
    are allowed (docs/xla-departures.md): the bits of a NaN (arithmetic
    quiets a signalling NaN and picks an operand's payload by instruction
    order; data movement keeps the bits) and denormals flushed to a zero of
    the same sign (XLA CPU runs with flush-to-zero). nsz: -0 and +0 are one
    value too (what --assume-no-signed-zeros asks for). Else the difference."""
    if len(want) != len(got):
        return "output count %d != %d" % (len(want), len(got))
    for i, (a, b) in enumerate(zip(want, got)):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return compare_bits([a], [b], "output %d" % i)
        if a.dtype.kind in "fcV" or a.dtype.name.startswith(("bfloat", "float")):
            fa, fb = _flushed(a), _flushed(b)
            with np.errstate(all="ignore"):
                na = np.isnan(fa.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
                nb = np.isnan(fb.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
            if (na != nb).any():
                return compare_bits([a], [b], "output %d" % i)
            fa, fb = np.where(na, 0, fa).astype(a.dtype), np.where(nb, 0, fb).astype(b.dtype)
            if nsz:
                fa = np.where(fa.astype(np.complex128 if a.dtype.kind == "c" else np.float64) == 0, 0, fa).astype(a.dtype)
                fb = np.where(fb.astype(np.complex128 if a.dtype.kind == "c" else np.float64) == 0, 0, fb).astype(b.dtype)
            d = compare_bits([fa], [fb], "output %d" % i)
        else:
            d = compare_bits([a], [b], "output %d" % i)
        if d:
            return d
    return None


def ordinary_inputs(params, seed):
    """Seeded inputs without NaN, infinities or denormals (small ordinary
    values and the integer specials): where two equivalent modules must
    give the same bits even on XLA CPU."""
    out = []
    for i, (t, dims) in enumerate(params):
        rng = np.random.default_rng([seed, i, 7])
        n = int(np.prod(dims)) if dims else 1
        dt = dtype_of(t)
        if dt.kind in "fc" or t.startswith(("bf", "f8", "f4")):
            with np.errstate(all="ignore"):
                v = (rng.integers(-64, 65, n) / 8.0).astype(dt)
        else:
            v = random_values(dt, n, rng)
        out.append(v.reshape(dims))
    return out


# ---------------------------------------------------------------------------
# hilo tools
# ---------------------------------------------------------------------------

class ToolResult:
    def __init__(self, rc, out, err, cmd):
        self.rc, self.out, self.err, self.cmd = rc, out, err, cmd

    def text(self):
        return self.out.decode("utf-8", "replace")

    def brief(self):
        lines = self.err.decode("utf-8", "replace").strip().splitlines()
        return "%s exit %s: %s" % (" ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(self.cmd)),
                                   self.rc, " | ".join(lines[:3]))


def run_tool(build, tool, args, stdin=None, out_suffix=".hlo", timeout=300, env=None):
    """Run BUILD/TOOL ARGS with its result written by `-o` to a temp file
    (never /dev/stdout): ToolResult(rc, output bytes, stderr bytes, cmd).
    Pass out_suffix=None for a tool run that writes no module."""
    exe = os.path.join(build, tool)
    with tempfile.TemporaryDirectory(prefix="hilo-xla-") as tmp:
        cmd = [exe] + list(args)
        outp = None
        if out_suffix is not None:
            outp = os.path.join(tmp, "out" + out_suffix)
            cmd += ["-o", outp]
        full_env = dict(os.environ)
        if env:
            full_env.update(env)
        try:
            p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout, env=full_env)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            return ToolResult(-1, b"", b"timed out after %d s" % timeout, cmd)
        out = b""
        if outp is not None and os.path.exists(outp):
            with open(outp, "rb") as f:
                out = f.read()
        elif outp is None:
            out = p.stdout
        return ToolResult(rc, out, err, cmd)


_hilo = None


def hilo_lib(build):
    """hilo's Python package (python/hilo, ctypes over BUILD/libhilo.so):
    parse, print, passes and the evaluator in this process, without a
    process per call. The same library the tools link."""
    global _hilo
    if _hilo is None:
        os.environ["HILO_LIBRARY"] = os.path.join(build, "libhilo.so")
        sys.path.insert(0, os.path.join(REPO, "python"))
        import hilo
        _hilo = hilo
    return _hilo


def hilo_opt(build, text_or_path, args, out_suffix=".hlo", timeout=300, tool="hilo-opt"):
    """hilo-opt on a file path (str naming an existing file) or on module
    text/bytes (written to a temp file first). tool="hilo-opt-test": the
    build's hilo-opt with the test-only (planted) passes of tests/lib."""
    if isinstance(text_or_path, str) and os.path.isfile(text_or_path):
        return run_tool(build, tool, [text_or_path] + list(args), out_suffix=out_suffix, timeout=timeout)
    data = text_or_path.encode() if isinstance(text_or_path, str) else text_or_path
    with tempfile.NamedTemporaryFile(prefix="hilo-xla-in-", suffix=".in",
                                     delete=False) as f:
        f.write(data)
        path = f.name
    try:
        return run_tool(build, tool, [path] + list(args), out_suffix=out_suffix, timeout=timeout)
    finally:
        os.unlink(path)


# ---------------------------------------------------------------------------
# Inputs of the tier: corpus, examples, lit tests
# ---------------------------------------------------------------------------

def split_modules(text):
    """The modules of a --split-input-file text ('// -----' lines between)."""
    parts = re.split(r"^// -----.*$", text, flags=re.M)
    return [p for p in parts if re.search(r"^\s*HloModule\b", p, flags=re.M)]


def lit_inputs():
    """(name, module text) for every module of every lit test under tests/lit."""
    out = []
    root = os.path.join(REPO, "tests", "lit")
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith(".hlo") or "Inputs" in dirpath:
                continue
            path = os.path.join(dirpath, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            if "XFAIL" in text:
                continue
            mods = split_modules(text) if "--split-input-file" in text else [text]
            rel = os.path.relpath(path, REPO)
            for i, m in enumerate(mods):
                out.append(("%s#%d" % (rel, i) if len(mods) > 1 else rel, m))
    return out


def example_inputs():
    root = os.path.join(REPO, "examples")
    return [(os.path.relpath(os.path.join(root, f), REPO), os.path.join(root, f))
            for f in sorted(os.listdir(root)) if f.endswith(".hlo")]


def corpus_inputs(shared, sub=None):
    """(name, path) of every .hlo under SHARED/corpus (or SHARED/corpus/SUB)."""
    root = os.path.join(shared, "corpus", sub) if sub else os.path.join(shared, "corpus")
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if f.endswith(".hlo") or f.endswith(".txt"):
                path = os.path.join(dirpath, f)
                out.append((os.path.relpath(path, os.path.join(shared, "corpus")), path))
    return out


# ---------------------------------------------------------------------------
# Sub-tier results and the command line every sub-tier takes
# ---------------------------------------------------------------------------

class Tier:
    """Counts the checks of one sub-tier and writes its result file."""

    def __init__(self, name, args):
        self.name = name
        self.args = args
        self.passed = 0
        self.total = 0
        self.failures = []
        self.skipped = None
        self.notes = []
        self.t0 = time.time()

    def check(self, ok, what, detail=""):
        """Count one check; a failure is kept as 'what: detail'."""
        self.total += 1
        if ok:
            self.passed += 1
        else:
            self.failures.append("%s: %s" % (what, detail) if detail else what)
            if self.args.verbose:
                print("FAIL %s" % self.failures[-1], flush=True)
        return ok

    def skip(self, reason):
        self.skipped = reason

    def finish(self):
        """Write the result JSON and return the exit code of the protocol."""
        res = {"tier": self.name, "passed": self.passed, "total": self.total,
               "failures": self.failures, "skipped": self.skipped,
               "seconds": round(time.time() - self.t0, 1), "notes": self.notes}
        if self.args.result:
            tmp = self.args.result + ".tmp"
            with open(tmp, "w") as f:
                json.dump(res, f, indent=1)
            os.replace(tmp, self.args.result)
        if self.skipped is not None:
            print("%s: skipped: %s" % (self.name, self.skipped))
            return 77
        print("%s: %d/%d (%.0f s)" % (self.name, self.passed, self.total, time.time() - self.t0))
        return 0 if self.passed == self.total and self.total > 0 else 1


def tier_args(name, argv=None, default_cases=None, extra=None):
    """The command line of a sub-tier (the protocol's flags, plus --verbose;
    extra(parser) adds a sub-tier's own flags)."""
    ap = argparse.ArgumentParser(prog="tests/xla/%s/run.py" % name)
    if extra:
        extra(ap)
    ap.add_argument("--build", required=True, help="hilo build folder (hilo-opt, hilo-run, libhilo.so)")
    ap.add_argument("--shared", required=True, help="the shared/ folder (corpus); may be missing")
    ap.add_argument("--result", required=True, help="where to write the result JSON")
    ap.add_argument("--cases", type=int, default=default_cases, help="how many cases (sub-tier's default)")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--only", default=None, help="regex: only cases whose name matches")
    args = ap.parse_args(argv)
    args.build = os.path.abspath(args.build)
    args.shared = os.path.abspath(args.shared)
    return args


def digest(data):
    if isinstance(data, str):
        data = data.encode()
    return hashlib.sha1(data).hexdigest()[:12]


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--worker":
    _worker_main(int(sys.argv[2]), int(sys.argv[3]))
