#!/usr/bin/env python3
"""XLA tier, evaluator parity: hilo's reference evaluator against XLA CPU.

    PY tests/xla/evaluator/run.py --build BUILD --shared SHARED --result R.json [--cases=N]

Generates single-instruction and small multi-instruction cases for every
opcode the evaluator implements and every element type it supports (the
families in cases_*.py), batches them into modules with a tuple root (one
XLA compile per batch), runs each module through hilo's C API (ctypes, the
`hilo` Python package over BUILD/libhilo.so) and through XLA's CPU
compiler, and compares every output element bit for bit (see cases.compare
for the documented exceptions). All inputs are parameters: a constant
would be folded by XLA's HloEvaluator rather than computed by the CPU
backend.

The default run is the fixed seed list SEEDS; --cases=N runs the first N
cases of the seed list extended with more seeds. Exit 0 when every case
agrees, 1 on a divergence, 77 when jax is not installed. The JSON result
also holds the counts per op ("per_op") that docs/evaluator.md reports.
"""
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import re

import xlalib  # noqa: E402

# ops that move bits without arithmetic: XLA keeps denormals there too
DATA_MOVEMENT = {"copy", "broadcast", "reshape", "transpose", "slice", "dynamic-slice",
                 "dynamic-update-slice", "concatenate", "pad", "reverse", "gather", "tuple",
                 "bitcast-convert", "select", "iota"}
# XLA CPU computes f16, bf16 and the f8/f4 types through f32 and back, even
# around data movement (its float normalization), which quiets signalling
# NaNs and rewrites NaN payloads and signs: for those types only NaN-ness
# is compared (counted in nan_payload_unspecified); f32/f64/complex NaN bits
# are compared where the op moves or signs them
NARROW_NAN = {"f16", "bf16", "f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e3m4",
              "f8e5m2fnuz", "f8e4m3fnuz", "f8e8m0fnu", "f4e2m1fn"}
SEEDS = [20261202, 31337, 4099, 65537, 271828, 314159, 1618033, 2718281]
DEFAULT_SEEDS = 1    # the default run: every case of the first seed
WORKERS = 2         # batches in flight (XLA worker processes)
BATCH = 160          # cases per module
MAX_ELEMS = 1200000   # elements per module (inputs and outputs)


def generate(nwanted, only):
    """The cases of the default run (the first seed of SEEDS), or the first
    nwanted cases of the seeds in order (spread evenly over the last seed's
    when it is cut)."""
    import gen_elementwise, gen_shape, gen_reduce, gen_control
    families = [gen_elementwise.cases, gen_shape.cases, gen_reduce.cases, gen_control.cases]
    out, used = [], []
    for k, seed in enumerate(SEEDS):
        if (not nwanted and k >= DEFAULT_SEEDS) or (nwanted and len(out) >= nwanted):
            break
        used.append(seed)
        batch = [c for fam in families for c in fam(seed) if not only or only.search(c.label())]
        if nwanted and len(out) + len(batch) > nwanted:
            want = nwanted - len(out)
            step = len(batch) / want
            batch = [batch[int(i * step)] for i in range(want)]
        out.extend(batch)
    return out, used


def elems(c):
    n = sum(a.size for _, a in c.params)
    return n * 2 + 16


def batches(cases):
    """Consecutive runs of cases, at most BATCH cases and MAX_ELEMS elements each."""
    cur, size = [], 0
    for c in cases:
        e = elems(c)
        if cur and (len(cur) >= BATCH or size + e > MAX_ELEMS):
            yield cur
            cur, size = [], 0
        cur.append(c)
        size += e
    if cur:
        yield cur


class Runner:
    """Runs batches on both sides. A batch that one side cannot run is split
    in halves on that side only (the other side's results are kept, per
    case), down to the single cases that fail."""

    def __init__(self, xla, hilo):
        self.xla, self.hilo = xla, hilo
        self.compiles = 0
        self.seconds = {"hilo": 0.0, "xla": 0.0}

    def _hilo(self, cases, name):
        """hilo's outputs, then (as extra outputs) those on denormal-flushed
        inputs, flushed (cases.flush_denormals)."""
        from cases import module_text, flush_denormals
        text, inputs = module_text(cases, name)
        try:
            m = self.hilo.Module.from_text(text, name + ".hlo")
            outs = m.evaluate(inputs, budget=10**11)
            flushed = [flush_denormals(a) for a in inputs]
            if any(f is not a for f, a in zip(flushed, inputs)):
                ftz = [flush_denormals(o) for o in m.evaluate(flushed, budget=10**11)]
            else:
                ftz = [flush_denormals(o) for o in outs]
            return [(o, f) for o, f in zip(outs, ftz)], None
        except Exception as e:
            return None, str(e)

    def _xla(self, cases, name):
        from cases import module_text
        text, inputs = module_text(cases, name)
        self.compiles += 1
        try:
            return self.xla(text, inputs), None
        except Exception as e:
            return None, str(e)

    @staticmethod
    def _split(cases, outs):
        from cases import split_outputs
        if outs and isinstance(outs[0], tuple):  # hilo's (outputs, flushed) pairs
            a = split_outputs(cases, [o for o, _ in outs])
            b = split_outputs(cases, [f for _, f in outs])
            return [list(zip(x, y)) for x, y in zip(a, b)]
        return split_outputs(cases, outs)

    def _side(self, fn, cases, name):
        """Per-case (outputs, error) of one side, bisecting failures."""
        t0 = time.time()
        outs, err = fn(cases, name)
        self.seconds["hilo" if fn == self._hilo else "xla"] += time.time() - t0
        if err is None:
            return [(o, None) for o in self._split(cases, outs)]
        if len(cases) == 1:
            return [(None, err)]
        mid = len(cases) // 2
        return self._side(fn, cases[:mid], name + "a") + self._side(fn, cases[mid:], name + "b")

    def run(self, cases, name):
        """[(case, hilo_outs, xla_outs, hilo_err, xla_err)] for the batch."""
        hs = self._side(self._hilo, cases, name)
        xs = self._side(self._xla, cases, name)
        return [(c, h, x, herr, xerr) for c, (h, herr), (x, xerr) in zip(cases, hs, xs)]


def fmt_elem(a, i):
    v = a.flat[i]
    try:
        from cases import _RAW
        if a.dtype.kind in "fVc" or "float" in str(a.dtype):
            raw = a[i:i + 1].view(_RAW[a.dtype.itemsize])[0] if a.dtype.kind != "c" else None
            if raw is not None:
                return "%r(0x%x)" % (v, int(raw))
    except Exception:
        pass
    return repr(v)


def main(argv):
    args = xlalib.tier_args("evaluator", argv)
    tier = xlalib.Tier("evaluator", args)
    try:
        import numpy
        import ml_dtypes  # noqa: F401
        xlalib.jax_modules()
    except ImportError as e:
        tier.skip("jax not installed (%s)" % e)
        return tier.finish()
    os.environ["HILO_LIBRARY"] = os.path.join(args.build, "libhilo.so")
    sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))
    import hilo
    from cases import compare

    only = re.compile(args.only) if args.only else None
    cases, seeds = generate(args.cases or 0, only)
    per_op = collections.OrderedDict()
    nan_allowed = collections.Counter()
    rejected = collections.Counter()
    ftz = collections.Counter()

    def sink(c, h, x, herr, xerr):
        st = per_op.setdefault(c.op, {"cases": 0, "passed": 0, "elements": 0, "types": []})
        if xerr is not None:
            key = "%s %s: XLA CPU cannot run it (%s)" % (c.op, c.ty, xerr.strip().split("\n")[-1][:160])
            rejected[key] += 1
            return
        st["cases"] += 1
        if c.ty not in st["types"]:
            st["types"].append(c.ty)
        if herr is not None:
            tier.check(False, c.label(), "hilo cannot evaluate what XLA runs: " +
                       herr.strip().split("\n")[0][:300])
            return
        ok = True
        for j, ((var, shape), (hv, hf), xv) in enumerate(zip(c.outs, h, x)):
            t = shape.split("[")[0]
            hv, xv = numpy.asarray(hv), numpy.asarray(xv)
            if hv.shape != xv.shape:
                tier.check(False, c.label(), "output %d: shape %s, XLA %s" % (j, hv.shape, xv.shape))
                ok = None
                break
            st["elements"] += hv.size
            cmp = c.cmp
            if cmp == "exact" and (t in NARROW_NAN or any(
                    ps.split("[")[0] in NARROW_NAN for ps, _ in c.params)):
                cmp = "nan"
            bad, nan = compare(hv.reshape(-1), xv.reshape(-1), t, cmp)
            nan_allowed[c.op] += nan
            if len(bad) and c.op not in DATA_MOVEMENT:
                fbad, _ = compare(numpy.asarray(hf).reshape(-1), xv.reshape(-1), t, cmp)
                still = numpy.intersect1d(bad, fbad)
                ftz[c.op] += len(bad) - len(still)
                bad = still
            if len(bad):
                i = int(bad[0])
                ins = ["p%d=%s" % (pj, fmt_elem(arr.reshape(-1), i))
                       for pj, (_, arr) in enumerate(c.params) if arr.size == hv.size]
                tier.check(False, c.label(), "output %d: %d/%d elements differ; first at %d: %s "
                           "hilo %s, XLA %s" % (j, len(bad), hv.size, i, " ".join(ins),
                                                fmt_elem(hv.reshape(-1), i), fmt_elem(xv.reshape(-1), i)))
                ok = None
                break
        if ok:
            st["passed"] += 1
            tier.check(True, c.label())

    # every instruction rounds to its own type: without this XLA CPU may
    # keep f16/bf16 intermediates of a fusion in f32 (its documented
    # excess-precision option, on by default)
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               " --xla_allow_excess_precision=false").strip()
    # WORKERS batches at a time, each with its own XLA worker process (the
    # waits on XLA and hilo's ctypes calls release the GIL); results are
    # judged in batch order
    import concurrent.futures
    import threading
    local = threading.local()
    workers, runners = [], []

    def task(bi, b):
        if not hasattr(local, "runner"):
            xla = xlalib.Xla(timeout=300)
            workers.append(xla)
            local.runner = Runner(lambda text, inputs: xla.call("jax_options:run", text, inputs),
                                  hilo)
            runners.append(local.runner)
        return local.runner.run(b, "evalparity_%d" % bi)

    t0 = time.time()
    try:
        with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
            futs = [pool.submit(task, bi, b) for bi, b in enumerate(batches(cases))]
            for bi, f in enumerate(futs):
                for r in f.result():
                    sink(*r)
                if args.verbose:
                    print("batch %d: %.1fs" % (bi, time.time() - t0), file=sys.stderr)
    finally:
        for w in workers:
            w.close()
    seconds = {k: round(sum(r.seconds[k] for r in runners), 1) for k in ("hilo", "xla")}
    tier.notes.append({"per_op": per_op, "seeds": seeds,
                       "compiles": sum(r.compiles for r in runners), "side_seconds": seconds,
                       "nan_payload_unspecified": dict(nan_allowed),
                       "denormal_flushed_by_xla": dict(ftz),
                       "xla_cannot_run": ["%s (%d cases)" % kv for kv in sorted(rejected.items())]})
    for k, n in sorted(rejected.items()):
        print("not compared: %s (%d cases)" % (k, n))
    return tier.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
