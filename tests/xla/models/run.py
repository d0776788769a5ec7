#!/usr/bin/env python3
"""tests/xla/models/run.py: the models sub-tier of `make xla-check` (issue 28 §4, §5).

Small real JAX programs (programs.py) are lowered at test time, before and
after XLA's optimizations, as HLO text and as HloModuleProto. Each of the
four modules is printed by hilo in the other format (text of the proto,
proto of the text) and goes through each hilo flow:

  neuron            --pipeline=neuron
  unrolled          the issue's unrolled flow (FLOW_UNROLLED)
  inlined-neuron    call-inliner, then the neuron pipeline
  inlined-unrolled  call-inliner, then the unrolled flow

(JAX lowers an inner jit and every scan slice as a `call`; the Neuron
passes look inside one computation, so the inlined flows are where most
rewrites of JAX programs happen.) For each run:
  - hilo-opt with --check-equivalence exits 0 with 0 failed verdicts;
  - XLA parses what hilo wrote (text, or proto read back);
  - before XLA's optimizations: XLA runs the module and hilo's output on
    the same seeded inputs (special values included) and the outputs are
    bit-identical (on the program's 8 devices for the shard_map one);
  - after XLA's optimizations: hilo.jax.install(passes=flow) rewrites the
    optimized module inside XLA's compiler and the jitted program gives
    bit-identical results with and without it, every verdict proved or
    tested (§5);
  - the passes the program exists for (programs.PROGRAMS) rewrite
    something in one of the flows (a remark with action "rewritten" that
    is not dead-code removal): otherwise the model tests nothing.
Then the README's JAX snippets are run as written (§5).

One check per program and one for the README, so the driver's line reads
`models J/L ok`; each failure names the program, module, flow and what
differed. The shard_map program runs in its own XLA worker started with
--xla_force_host_platform_device_count=8.
"""

import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import xlalib  # noqa: E402

sys.path.insert(0, HERE)
import programs  # noqa: E402  (module-level code imports no jax)

NEURON = ["simplify-concat", "neuron-preprocess-kernel-duplicate-remover",
          "neuron-dus-ds-index-simplifier", "dynamic-slice-mover",
          "neuron_all_gather_duplicate_remover", "slice-of-concat-optimizer",
          "neuron_repeated_dus_to_concat", "dce"]
FLOW_UNROLLED = ["while-loop-unroller", "neuron-dus-ds-index-simplifier", "dynamic-slice-mover",
                 "slice-of-concat-optimizer", "neuron_repeated_dus_to_concat", "dce"]
FLOWS = [
    ("neuron", ["--pipeline=neuron"], ["pipeline:neuron"]),
    ("unrolled", ["--passes=" + ",".join(FLOW_UNROLLED)], FLOW_UNROLLED),
    ("inlined-neuron", ["--passes=" + ",".join(["call-inliner"] + NEURON)], ["call-inliner"] + NEURON),
    ("inlined-unrolled", ["--passes=" + ",".join(["call-inliner"] + FLOW_UNROLLED)],
     ["call-inliner"] + FLOW_UNROLLED),
]
SEEDS = (0, 1)               # 0: ordinary values; 1: with special values (worker.inputs)
# remarks that say "rewritten" for dead-code clean-up, not for the pass's own rewrite
CLEANUP = re.compile(r"^(removed dead instruction|removed unreachable computation)")
EQUIV = re.compile(r"equivalence: (\d+) rewrites: (\d+) proved, (\d+) tested \((\d+) inputs\), "
                   r"(\d+) skipped, (\d+) failed")


def fired(remarks):
    """The passes with a rewrite of their own among `remarks` (JSON lines)."""
    out = set()
    for line in remarks.splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("action") == "rewritten" and not CLEANUP.match(r.get("reason", "")):
            out.add(r["pass"])
    return out


def run_hilo(build, data, ext, flow_args):
    """hilo-opt DATA FLOW --check-equivalence: (output bytes, remarks text,
    equivalence tuple or None, failure text or None)."""
    with tempfile.TemporaryDirectory(prefix="hilo-models-") as tmp:
        rpath = os.path.join(tmp, "remarks.jsonl")
        r = xlalib.hilo_opt(build, data, flow_args + ["--check-equivalence", "--remarks=" + rpath],
                            out_suffix=ext)
        remarks = open(rpath).read() if os.path.exists(rpath) else ""
    m = EQUIV.search(r.err.decode("utf-8", "replace"))
    eq = tuple(int(x) for x in m.groups()) if m else None
    if r.rc != 0:
        return r.out, remarks, eq, r.brief()
    if eq is None:
        return r.out, remarks, eq, "no equivalence line: " + r.brief()
    if eq[5] != 0:
        return r.out, remarks, eq, "%d failed verdicts (%s)" % (eq[5], m.group(0))
    return r.out, remarks, eq, None


def call(xla, func, *args):
    """xla.call of a models.worker function; a crash, a time-out or an
    exception in the worker comes back as {"ok": False, "error"}."""
    try:
        return xla.call("models.worker:" + func, *args)
    except Exception as e:  # xlalib.XlaCrash, or the worker's exception
        return {"ok": False, "error": str(e)[-800:]}


def check_program(name, xla, build, verbose=False):
    """Every check of one program: (failures, passes that fired, notes)."""
    fails, fires, notes = [], set(), []
    prog = programs.PROGRAMS[name]
    low = call(xla, "lower", name)
    if "error" in low:
        return ["lowering failed: %s" % low["error"]], fires, notes
    twin = {}                   # seed -> outputs of the hand-unrolled twin
    if prog.twin:
        tl = call(xla, "lower", name, True)
        for seed in SEEDS:
            r = call(xla, "run_module", name, tl["pre_text"], seed) if "error" not in tl else tl
            if not r.get("ok"):
                fails.append("XLA cannot run the hand-unrolled twin (seed %d): %s" % (seed, r["error"][:300]))
            twin[seed] = r.get("outputs")
    modules = [("pre.hlo", low["pre_text"], ".hlo"), ("pre.pb", low["pre_proto"], ".pb"),
               ("post.hlo", low["post_text"], ".hlo"), ("post.pb", low["post_proto"], ".pb")]
    base, ran = {}, {}
    for seed in SEEDS:
        r = call(xla, "run_module", name, low["pre_text"], seed)
        if not r["ok"]:
            fails.append("XLA cannot run the lowered module (seed %d): %s" % (seed, r["error"][:300]))
        base[seed] = r["outputs"]
    for mod, data, ext in modules:
        data = data.encode() if isinstance(data, str) else data
        # no passes, written in the other format (text of a proto, proto
        # of a text), then every flow in the input's format
        other = ".hlo" if ext == ".pb" else ".pb"
        for flow, flow_args, oext in [("print" + other, [], other)] + [(f, a, ext) for f, a, _ in FLOWS]:
            where = "%s %s" % (mod, flow)
            out, remarks, eq, err = run_hilo(build, data, oext, flow_args)
            if err:
                fails.append("%s: hilo-opt: %s" % (where, err))
                continue
            got_fired = fired(remarks)
            if mod.startswith("pre"):
                fires |= got_fired
            notes.append("%s %s: %s rewrites (%d proved, %d tested), fired %s" % (
                name, where, eq[0], eq[1], eq[2], ",".join(sorted(got_fired)) or "-"))
            parsed = xla.parse_text(out.decode()) if oext == ".hlo" else xla.parse_proto(out)
            if not parsed["ok"]:
                fails.append("%s: XLA does not parse hilo's output: %s" % (where, str(parsed["error"])[:300]))
                continue
            if not mod.startswith("pre") or base[SEEDS[0]] is None:
                continue
            key = xlalib.digest(parsed["short"])
            if key in ran:          # the same module as XLA prints it: run already
                if ran[key]:
                    fails.append("%s: same module as %s, which failed" % (where, ran[key]))
                continue
            ran[key] = None
            if verbose:
                print("  run %s %s" % (name, where), flush=True)
            for seed in SEEDS:
                r = call(xla, "run_module", name, parsed["proto"], seed)
                if not r["ok"]:
                    fails.append("%s seed %d: XLA cannot run hilo's output: %s" % (where, seed, r["error"][:300]))
                    ran[key] = where
                    break
                d = xlalib.compare_bits(base[seed], r["outputs"])
                if d and twin.get(seed) is not None and "unrolled" in flow:
                    # XLA compiles a loop and its unrolled form differently
                    # (fusion, reduction order, NaN payloads): then hilo's
                    # unrolled module must give exactly what XLA gives for
                    # the program with the loop written out by hand
                    dt = xlalib.compare_bits(twin[seed], r["outputs"])
                    if dt is None:
                        notes.append("%s %s seed %d: differs from the loop (%s) as XLA's own "
                                     "hand-unrolled program does; bit-identical to that" % (name, where, seed, d))
                        continue
                    d += "; and from the hand-unrolled twin: " + dt
                if d:
                    fails.append("%s seed %d: XLA's results differ after hilo: %s" % (where, seed, d))
                    ran[key] = where
    # after XLA's optimizations, executed: hilo inside XLA's compiler
    lib = os.path.join(build, "libhilo.so")
    for flow, _, passes in FLOWS:
        r = call(xla, "jit_with_hilo", name, passes, SEEDS[1], lib)
        if "error" in r:
            fails.append("hilo.jax %s: %s" % (flow, r["error"]))
            continue
        if r["diff"]:
            fails.append("hilo.jax %s: results differ with hilo installed: %s" % (flow, r["diff"]))
        recs = r["report"]
        if not recs:
            fails.append("hilo.jax %s: XLA compiled no module through hilo" % flow)
        for rec in recs:
            eqv = rec.get("equivalence") or {}
            if rec.get("error") or eqv.get("failed") or eqv.get("skipped"):
                fails.append("hilo.jax %s module %s: error %s, verdicts %s" % (
                    flow, rec.get("module"), rec.get("error"), eqv.get("message")))
        notes.append("%s hilo.jax %s: %d modules, %d changed, verdicts %s" % (
            name, flow, len(recs), sum(1 for x in recs if x["changed"]),
            "; ".join((x.get("equivalence") or {}).get("message", "-") for x in recs)))
    missing = [p for p in prog.expect if p not in fires]
    if missing:
        fails.append("these passes never rewrote anything: %s (fired: %s)" % (
            ", ".join(missing), ", ".join(sorted(fires)) or "none"))
    return fails, fires, notes


def readme_snippets():
    """The ```python blocks of README.md that use jax, in order."""
    with open(os.path.join(xlalib.REPO, "README.md"), encoding="utf-8") as f:
        text = f.read()
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    return [b for b in blocks if re.search(r"^import jax|^from jax", b, flags=re.M)]


def check_readme(build):
    """Run each JAX snippet of the README as written, from the checkout
    (its paths are relative to it), with this build's libhilo: failures."""
    import subprocess
    snippets = readme_snippets()
    if not snippets:
        return ["README.md has no JAX snippet"]
    fails = []
    env = dict(os.environ, HILO_LIBRARY=os.path.join(build, "libhilo.so"),
               PYTHONPATH=os.path.join(xlalib.REPO, "python"), PYTHONDONTWRITEBYTECODE="1")
    for i, code in enumerate(snippets):
        with tempfile.NamedTemporaryFile("w", suffix=".py", prefix="readme-jax-", delete=False) as f:
            f.write(code)
            path = f.name
        try:
            p = subprocess.run([sys.executable, path], cwd=xlalib.REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=300, env=env)
        finally:
            os.unlink(path)
        if p.returncode != 0:
            tail = p.stderr.decode("utf-8", "replace").strip().splitlines()[-4:]
            fails.append("README JAX snippet %d exits %d: %s" % (i + 1, p.returncode, " | ".join(tail)))
    return fails


def main():
    args = xlalib.tier_args("models")
    tier = xlalib.Tier("models", args)
    try:
        import jax  # noqa: F401  (the tier needs the pinned venv's jax)
    except ImportError as e:
        tier.skip("jax not importable (%s)" % e)
        return tier.finish()
    workers = {}
    try:
        for name, prog in programs.PROGRAMS.items():
            if args.only and not re.search(args.only, name):
                continue
            devices = prog.devices
            if devices not in workers:
                workers[devices] = xlalib.Xla(devices=devices, timeout=300)
            fails, fires, notes = check_program(name, workers[devices], args.build, args.verbose)
            tier.notes.extend(notes)
            tier.notes.append("%s: passes fired: %s" % (name, ", ".join(sorted(fires)) or "none"))
            if args.verbose:
                print("\n".join(notes), flush=True)
            tier.check(not fails, "model %s" % name, "\n".join(fails))
    finally:
        for w in workers.values():
            w.close()
    if not args.only or re.search(args.only, "hook"):
        with xlalib.Xla(devices=1, timeout=300) as xla:
            r = call(xla, "hook_semantics", os.path.join(args.build, "libhilo.so"))
        fails = [r["error"]] if isinstance(r, dict) else r
        tier.check(not fails, "hilo.jax install/uninstall", "\n".join(fails))
    if not args.only or re.search(args.only, "readme"):
        fails = check_readme(args.build)
        tier.check(not fails, "README JAX snippets", "\n".join(fails))
    return tier.finish()


if __name__ == "__main__":
    sys.exit(main())
