"""tests/xla/models/worker.py: what the models sub-tier asks of an XLA
worker process (xlalib.Xla(devices=N).call("models.worker:FUNC", ...)).

Everything here imports jax; the driver (run.py) never does. XLA itself
is reached through xlalib (parse, signature, compile, run, inputs, bit
comparison); the two things added here are what xlalib has no use for
elsewhere: running a module over the 8 devices of a shard_map program
(SPMD, one executable over every device) and compiling a jitted program
with hilo installed inside XLA (hilo.jax).
"""

import os
import sys

import numpy as np

import xlalib
from models import programs


def lower(name, twin=False):
    """programs.lower, in the worker (jax with x64, as every run here)."""
    xlalib.jax_modules()
    return programs.lower(name, twin)


def _spmd_run(name, module, inputs):
    """Compile `module` (text or proto) for the program's devices, SPMD,
    with Shardy (the partitioner the module's sdy attributes are for), and
    run it on `inputs` placed with the program's own shardings: every
    device's piece of every output, device by device."""
    jax, hlo, jext, backend = xlalib.jax_modules()
    devices = programs.PROGRAMS[name].devices
    _, args = programs.PROGRAMS[name].build()
    if isinstance(module, str):
        module = hlo.hlo_module_from_text(module).as_serialized_hlo_module_proto()
    opts = jext.CompileOptions()
    opts.num_partitions = devices
    opts.num_replicas = 1
    opts.executable_build_options.use_spmd_partitioning = True
    opts.executable_build_options.use_shardy_partitioner = True
    devs = backend.local_devices()[:devices]
    exe = backend.compile_and_load(jext.mlir.hlo_to_stablehlo(module), jext.DeviceList(tuple(devs)), opts)
    placed = [jax.device_put(x, a[2]) for x, a in zip(inputs, args)]
    pieces = exe.execute_sharded(placed).disassemble_into_single_device_arrays()
    return [np.asarray(p) for per_output in pieces for p in per_output]


def inputs(params, seed):
    """Seed 0: ordinary values (standard normal floats, small integers), so
    that the outputs are numbers rather than the NaNs special values
    spread through a network; other seeds: xlalib.make_inputs (a third
    special values, a third random bit patterns)."""
    if seed:
        return xlalib.make_inputs(params, seed)
    rng = np.random.default_rng(0)
    out = []
    for t, dims in params:
        dt = xlalib.dtype_of(t)
        if dt.kind == "f":
            out.append(rng.standard_normal(dims).astype(dt))
        else:
            out.append(rng.integers(0, 4, dims).astype(dt))
    return out


def run_module(name, module, seed):
    """Run `module` on inputs(its signature, seed): {ok, error, outputs};
    one device, or the program's SPMD devices."""
    try:
        params, _ = xlalib.xla_signature(module)
        ins = inputs(params, seed)
    except Exception as e:
        return {"ok": False, "error": str(e).strip()[:2000], "outputs": None}
    if programs.PROGRAMS[name].devices == 1:
        r = xlalib.xla_run(module, inputs=ins)
        return {"ok": r["ok"], "error": r.get("error"), "outputs": r.get("outputs")}
    try:
        outs = _spmd_run(name, module, ins)
    except Exception as e:
        return {"ok": False, "error": str(e).strip()[:2000], "outputs": None}
    return {"ok": True, "error": None, "outputs": outs}


def _jit_outputs(name, inputs):
    jax, _, _, _ = xlalib.jax_modules()
    f, args = programs.PROGRAMS[name].build()
    placed = [jax.device_put(x, a[2]) if len(a) > 2 else x for x, a in zip(inputs, args)]
    outs = jax.jit(f)(*placed)
    leaves = jax.tree_util.tree_leaves(outs)
    return [np.asarray(o) for o in leaves]


def jit_with_hilo(name, passes, seed, library):
    """Run the jitted program on seeded inputs without hilo and with
    hilo.jax.install(passes, check_equivalence=True): XLA compiles the
    module hilo rewrote from its own optimized one. Returns {diff (None
    when bit-identical), report (hilo.jax's per-module records)}."""
    jax, _, _, _ = xlalib.jax_modules()
    os.environ["HILO_LIBRARY"] = library
    sys.path.insert(0, os.path.join(xlalib.REPO, "python"))
    import hilo.jax
    _, args = programs.PROGRAMS[name].build()
    ins = inputs([(xlalib.type_name(np.dtype(a[1])), tuple(a[0])) for a in args], seed)
    jax.clear_caches()
    want = _jit_outputs(name, ins)
    report = hilo.jax.install(passes=passes, check_equivalence=True, on_error="raise")
    try:
        got = _jit_outputs(name, ins)
    finally:
        hilo.jax.uninstall()
        jax.clear_caches()
    return {"diff": xlalib.compare_bits(want, got), "report": list(report)}


def hook_semantics(library):
    """hilo.jax.install / uninstall on the decoder (a jitted scan): what
    each one promises, as a list of failures (empty: all kept)."""
    jax, _, _, _ = xlalib.jax_modules()
    os.environ["HILO_LIBRARY"] = library
    sys.path.insert(0, os.path.join(xlalib.REPO, "python"))
    import hilo
    import hilo.jax
    fails = []
    _, args = programs.PROGRAMS["decoder"].build()
    ins = inputs([(xlalib.type_name(np.dtype(a[1])), tuple(a[0])) for a in args], 0)
    hilo.jax.uninstall()
    want = _jit_outputs("decoder", ins)
    # a report passed in is the one filled; install() clears jax's caches,
    # so the already compiled decoder goes through hilo
    mine = []
    rep = hilo.jax.install(passes=["pipeline:neuron"], report=mine)
    got = _jit_outputs("decoder", ins)
    if rep is not mine:
        fails.append("install(report=L) did not return L")
    if len(mine) != 1 or mine[0]["module"] != "jit_f" or mine[0]["error"]:
        fails.append("one record for jit_f expected, got %r" % [(r["module"], r["error"]) for r in mine])
    eq = mine[0]["equivalence"] if mine else None
    if not eq or eq.get("failed") or eq.get("skipped") or eq.get("rewrites") != eq.get("proved", 0) + eq.get("tested", 0):
        fails.append("verdicts not all proved/tested: %r" % (eq,))
    d = xlalib.compare_bits(want, got)
    if d:
        fails.append("results differ with hilo installed: %s" % d)
    # a rewrite inside XLA: the unrolled flow unrolls the scan's while loop
    # in XLA's optimized module (copy and wrapped-fusion forms), XLA
    # compiles the result, every verdict proved or tested
    flow = ["while-loop-unroller", "neuron-dus-ds-index-simplifier", "dynamic-slice-mover",
            "slice-of-concat-optimizer", "neuron_repeated_dus_to_concat", "dce"]
    unrolled = hilo.jax.install(passes=flow, on_error="raise")
    got = _jit_outputs("decoder", ins)
    hilo.jax.uninstall()
    if len(unrolled) != 1 or not unrolled[0]["changed"]:
        fails.append("the unrolled flow did not change the decoder inside XLA: %r" % [
            (r["module"], r["changed"], (r["equivalence"] or {}).get("message")) for r in unrolled])
    else:
        eq = unrolled[0]["equivalence"] or {}
        if not eq.get("rewrites") or eq.get("failed") or eq.get("skipped") or \
                eq["rewrites"] != eq.get("proved", 0) + eq.get("tested", 0):
            fails.append("unrolled flow inside XLA: verdicts not all proved/tested: %r" % (eq,))
        if not any(x.get("pass") == "while-loop-unroller" and x.get("action") == "rewritten"
                   for x in unrolled[0]["remarks"]):
            fails.append("unrolled flow inside XLA: no while-loop-unroller rewrite among the remarks")
    d = xlalib.compare_bits(want, got)
    if d:
        fails.append("results differ with the unrolled flow inside XLA: %s" % d)
    hilo.jax.install(passes=["pipeline:neuron"], report=mine)
    # uninstall: the next compilation does not reach hilo
    if hilo.jax.uninstall() is not True:
        fails.append("uninstall() after install() did not return True")
    _jit_outputs("decoder", ins)
    if len(mine) != 1:
        fails.append("a module reached hilo after uninstall()")
    if hilo.jax.uninstall() is not False:
        fails.append("a second uninstall() did not return False")
    # a pass hilo does not know: on_error="keep" leaves XLA's module and
    # says why; on_error="raise" fails the compilation
    rep = hilo.jax.install(passes=["no-such-pass"])
    got = _jit_outputs("decoder", ins)
    hilo.jax.uninstall()
    if len(rep) != 1 or not rep[0]["error"] or "no-such-pass" not in rep[0]["error"] or rep[0]["changed"]:
        fails.append("on_error=keep: expected one record naming the unknown pass, got %r" % list(rep))
    d = xlalib.compare_bits(want, got)
    if d:
        fails.append("on_error=keep changed the results: %s" % d)
    hilo.jax.install(passes=["no-such-pass"], on_error="raise")
    try:
        _jit_outputs("decoder", ins)
        fails.append("on_error=raise: the compilation did not fail")
    except Exception as e:
        if "no-such-pass" not in str(e):
            fails.append("on_error=raise: the error does not name the pass: %s" % str(e)[:300])
    finally:
        hilo.jax.uninstall()
    return fails
