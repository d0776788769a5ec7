#!/usr/bin/env python3
"""XLA tier, run parity (issue 28 section 2).

XLA's CPU backend executes a module before and after hilo's passes on the
same seeded inputs (integers and floats with NaNs of every kind, +-0,
+-inf, denormals, INT_MIN: xlalib.make_inputs) and the outputs must be bit
for bit the same. One case is one (module, passes) pair where the passes
changed the module and XLA compiles the module before them; each case runs
two seeds.

Pairs:
  lit      every lit test's input with the passes of its RUN lines, and
           with --pipeline=neuron;
  corpus   every XLA pass-test input (corpus/xla-unit/passes/<pass>) with
           that pass when hilo has it, and with --pipeline=neuron; the
           examples with --pipeline=neuron and the unrolled flow;
  cones    for the real dumps (too big or multi-device to run whole): each
           rewrite the validator reports as "X replaced by Y" in a user U,
           or "X redefined", is cut out of the module before and after the
           pipeline with `hilo-opt --extract=U` (the whole cone down to the
           entry parameters), and both cones run on inputs drawn per
           parameter name, so the two sides meet the same values.

planted  every deliberately unsound test- pass (hilo-opt-test) on its lit
         input: here XLA must see a difference (a check that fails when the
         tier cannot see a wrong rewrite; PLANTED_UNSEEN lists the ones no
         output value shows); a sound test- pass must agree.

A pair XLA cannot compile before the passes (a custom-call or collective
the CPU lacks, infeed, token parameters) is not counted; the reasons are
listed in the result's notes. When the module after the passes does not
compile, or its outputs differ in any bit, the case fails.
"""

import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import xlalib as X  # noqa: E402

UNROLLED_FLOW = ("while-loop-unroller,neuron-dus-ds-index-simplifier,dynamic-slice-mover,"
                 "slice-of-concat-optimizer,neuron_repeated_dus_to_concat,dce")
CORPUS_PASS = {"dce": "dce", "cse": "cse", "call-inliner": "call-inliner",
               "constant_folding": "constant-folding", "tuple-simplifier": "tuple-simplifier"}
SEEDS = (1, 2)
PLANTED_SEEDS = tuple(range(1, 9))  # a planted bug may show at few inputs
BIG = 300_000            # bytes: run by cones

# --suite (make test): a fixed stratified selection, ~5 min on 2 cores. The
# pairs fall in strata (each lit directory's RUN-line passes, the lit
# modules with --pipeline=neuron, each corpus pass directory with its pass
# and with --pipeline=neuron, the examples, the small real dumps); within a
# stratum the pairs go in the order of a digest of their name and flags (a
# fixed spread over the files, not the first ones alphabetically) and are
# taken until the stratum has SUITE_QUOTA counted cases. The examples, the
# small real dumps and every planted pass are all taken; every big dump, with
# its first SUITE_CONES cones.
SUITE_QUOTA = {"lit": 9, "lit neuron": 32, "corpus pass": 10, "corpus neuron": 4}
SUITE_CONES = 4
MAX_ELEMENTS = 1 << 24   # inputs larger than this are not drawn (time)


def planted_passes(text):
    """The test- passes a lit test runs (tests/lit/test-passes), each with
    whether the lit test says it is unsound: a RUN line of it expects the
    equivalence check to fail (`test $? = 4`, or `not hilo-opt-test`); the others are sound test
    passes (sound_*.hlo), where XLA must agree like anywhere else."""
    out = {}
    for line in re.findall(r"^// RUN: (.*)$", text, flags=re.M):
        for p in re.findall(r"--passes[= ](test-[\w-]+)", line):
            out[p] = out.get(p, False) or "test $? = 4" in line or line.lstrip().startswith("not ")
    return sorted(out.items())


# Planted unsound passes whose wrong rewrite no output value of one XLA CPU
# run can show: not counted (listed in the notes), every other one must be
# caught. Each reason is the lit test's own account.
PLANTED_UNSEEN = {
    "test-aliasing-retargeted": "changes only an output_to_operand_aliasing record; every value is the same",
    "test-io-alias-dropped": "drops only the input_output_alias contract; no value changes",
    "test-partition-id-folded": "wrong on partition 1 only; the tier runs one device (partition 0, replica 0)",
    "test-replica-id-as-partition-id": "wrong where replica and partition ids differ; one device has both 0",
    "test-concat-add-snan": "differs only in a signalling NaN's quiet bit, which XLA CPU does not keep "
                            "(it gives both modules the same bits on every seed; see the probes)",
    "test-cse-float-commuted": "differs only in which NaN operand's payload an add returns, which XLA CPU "
                               "does not keep (it gives both modules the same bits on every seed)",
}
# At least this many distinct planted passes must be caught: the check that
# the planted cases still run at all (they once all went unnoticed as "did
# not rewrite" when the test passes moved from hilo-opt to hilo-opt-test).
PLANTED_MIN = 14


def lit_passes(text):
    """The --passes=/--pipeline= lists of a lit test's hilo-opt RUN lines
    that are expected to succeed (no `not`, no planted test- passes)."""
    out = []
    for line in re.findall(r"^// RUN: (.*)$", text, flags=re.M):
        if "hilo-opt" not in line or line.lstrip().startswith("not ") or "test $? =" in line:
            continue
        m = re.search(r"--passes[= ](\S+)", line)
        flags = [f for f in ("--assume-no-signed-zeros", "--assume-equivalent-kernels", "--unroll-markers")
                 if f in line]
        if m and "test-" not in m.group(1):
            out.append(["--passes=" + m.group(1)] + flags)
        elif "--pipeline=neuron" in line:
            out.append(["--pipeline=neuron"] + flags)
    return out


def named_inputs(params, names, seed, ordinary=False):
    """Inputs drawn per parameter name (so two cones with the same entry
    parameters in another order or subset see the same values)."""
    out = []
    for (t, dims), name in zip(params, names):
        key = int(X.digest(name), 16) & 0xffffffff
        if ordinary:
            out.append(X.ordinary_inputs([(t, dims)], seed * 7919 + key)[0])
            continue
        rng = X.np.random.default_rng([seed, key])
        n = int(X.np.prod(dims)) if dims else 1
        out.append(X.random_values(X.dtype_of(t), n, rng).reshape(dims))
    return out


def param_names(text):
    """Entry parameter names in parameter order, from a hilo print."""
    m = re.search(r"^ENTRY .*?\{\n(.*?)^\}", text, flags=re.M | re.S)
    found = re.findall(r"^\s*(?:ROOT )?%?([\w.\-]+) = .*? parameter\((\d+)\)", m.group(1) if m else "", flags=re.M)
    return [n for n, _ in sorted(found, key=lambda t: int(t[1]))]


def normal_inputs(params, names, seed):
    """Floats drawn from N(0, 1) (integers as random_values): operands of
    close exponents, where regrouped sums and products round differently
    (the special-value sets spread exponents so widely that one operand
    dominates). Per parameter name when names is given (cones)."""
    out = []
    for i, (t, dims) in enumerate(params):
        key = (int(X.digest(names[i]), 16) & 0xffffffff) if names else i
        rng = X.np.random.default_rng([seed, key, 11])
        n = int(X.np.prod(dims)) if dims else 1
        dt = X.dtype_of(t)
        if dt.kind in "fc" or t.startswith(("bf", "f8", "f4")):
            with X.np.errstate(all="ignore"):
                v = rng.standard_normal(n).astype(dt)
        else:
            v = X.random_values(dt, n, rng)
        out.append(v.reshape(dims))
    return out


def run_pair(xla, before, after, seeds, by_name, nsz=False):
    """Runs both modules: ("skip", reason) when `before` does not run on
    XLA, ("fail", detail) on a difference, ("ok", None)."""
    try:
        sig_b = xla.call("xla_signature", before, timeout=60)
        sig_a = xla.call("xla_signature", after, timeout=60)
    except (X.XlaCrash, RuntimeError) as e:
        return "skip", "signature: %s" % str(e).splitlines()[0][:150]
    params_b, params_a = sig_b[0], sig_a[0]
    if re.search(r"[ =](?:in|out)feed\(", before):
        # XLA CPU waits for a host transfer that never comes: each run would
        # only end at the worker's timeout
        return "skip", "infeed/outfeed (XLA CPU waits for the host)"
    if any(t == "token" for t, _ in params_b):
        return "skip", "token parameter"
    if sum(int(X.np.prod(d)) if d else 1 for _, d in params_b) > MAX_ELEMENTS:
        return "skip", "inputs over %d elements" % MAX_ELEMENTS
    if not by_name and params_a != params_b:
        return "fail", "signatures differ: %s -> %s" % (params_b, params_a)
    modulo = None
    for seed in seeds:
        if by_name:
            nb, na = param_names(before), param_names(after)
            if len(nb) != len(params_b) or len(na) != len(params_a):
                return "skip", "tuple-shaped entry parameters in a cone"
            in_b = named_inputs(params_b, nb, seed)
            in_a = named_inputs(params_a, na, seed)
        else:
            in_b = in_a = X.make_inputs(params_b, seed)
        rb = xla.run(before, inputs=in_b, timeout=90)
        if not rb["ok"]:
            return "skip", "%s: %s" % (rb.get("stage"), first_line(rb.get("error")))
        ra = xla.run(after, inputs=in_a, timeout=90)
        if not ra["ok"] and "Unexpected bitcast operation seen during layout assignment" in (ra.get("error") or ""):
            # the run path (hlo_to_stablehlo) drops layouts and XLA assigns
            # them again, which rejects a bitcast: a layout-assigned module's
            # bitcast cannot be judged here (the module before had none)
            return "skip", "bitcast after the passes: the StableHLO run path drops layouts"
        if not ra["ok"]:
            return "fail", "XLA runs the module before the passes but not after (%s: %s)" % (
                ra.get("stage"), first_line(ra.get("error")))
        d = X.compare_bits(rb["outputs"], ra["outputs"])
        if not d:
            continue
        again = xla.run(before, inputs=in_b, timeout=90)
        if again["ok"] and X.compare_bits(rb["outputs"], again["outputs"]):
            return "skip", "nondeterministic: two runs of the module before the passes differ"
        if X.compare_modulo_xla(rb["outputs"], ra["outputs"], nsz) is not None:
            return "fail", "seed %d: %s" % (seed, d)
        # only NaN bits or flushed denormals differ: XLA's freedoms (the
        # probes show them with XLA alone). On ordinary inputs the two
        # modules must still agree bit for bit.
        if by_name:
            ob = named_inputs(params_b, param_names(before), seed, ordinary=True)
            oa = named_inputs(params_a, param_names(after), seed, ordinary=True)
        else:
            ob = oa = X.ordinary_inputs(params_b, seed)
        rb2 = xla.run(before, inputs=ob, timeout=90)
        if not rb2["ok"]:
            # (a loop whose trip count the inputs set may not end on them)
            return "skip", "differs modulo XLA's freedoms; the ordinary-input rerun does not run before the passes"
        ra2 = xla.run(after, inputs=oa, timeout=90)
        if not ra2["ok"]:
            return "fail", "seed %d: %s (and on ordinary inputs the module after the passes does not run)" % (seed, d)
        d2 = (X.compare_modulo_xla(rb2["outputs"], ra2["outputs"], nsz=True) if nsz
              else X.compare_bits(rb2["outputs"], ra2["outputs"]))
        if d2:
            return "fail", "seed %d, ordinary inputs: %s" % (seed, d2)
        modulo = modulo or "seed %d: %s" % (seed, d)  # and the other seeds go on
    # and once on N(0, 1) floats: no NaN, infinity or denormal in the inputs
    nb, na = (param_names(before), param_names(after)) if by_name else (None, None)
    in_b = normal_inputs(params_b, nb, seeds[0])
    in_a = normal_inputs(params_a, na, seeds[0]) if by_name else in_b
    rb = xla.run(before, inputs=in_b, timeout=90)
    if not rb["ok"]:
        # (a loop whose trip count the inputs set may not end on them)
        return ("modulo", modulo) if modulo else ("ok", None)
    ra = xla.run(after, inputs=in_a, timeout=90)
    if not ra["ok"]:
        return "fail", "N(0, 1) inputs: XLA runs the module before the passes but not after (%s: %s)" % (
            ra.get("stage"), first_line(ra.get("error")))
    # (NaNs a computation makes from these, e.g. sqrt of a negative, keep
    # XLA's freedoms; every other bit must agree)
    d = X.compare_modulo_xla(rb["outputs"], ra["outputs"], nsz)
    if d:
        return "fail", "N(0, 1) inputs: %s" % d
    return ("modulo", modulo) if modulo else ("ok", None)


def first_line(s):
    s = (s or "").strip()
    for line in s.splitlines():
        if "error" in line.lower() or "UNIMPLEMENTED" in line or "INVALID" in line:
            return line.strip()[:200]
    return s.splitlines()[0][:200] if s else ""


class RunParity:
    def __init__(self, tier, args):
        self.tier = tier
        self.args = args
        self.xla = X.Xla(timeout=120)
        self.skips = {}
        self.unchanged = 0
        self.seen = set()
        self.modulo = []
        self.caught = []

    def skip(self, why):
        key = re.sub(r"\d+", "N", why)[:90]
        self.skips[key] = self.skips.get(key, 0) + 1

    def case(self, name, before, flags, by_name=False):
        if "--unroll-markers" in flags:
            # the markers are Neuron custom-calls XLA's CPU backend has no
            # implementation of: the module after cannot run by design
            self.skip("--unroll-markers: NeuronBoundaryMarker custom-calls (no CPU implementation)")
            return
        r = X.hilo_opt(self.args.build, before, flags + ["--print-style=default"])
        if r.rc != 0:
            if r.rc >= 3:
                self.tier.check(False, "%s [%s]" % (name, " ".join(flags)), r.brief())
            else:
                self.skip("hilo refuses: " + r.brief().split(": ", 1)[-1][:60])
            return
        b = X.hilo_opt(self.args.build, before, ["--print-style=default"])
        if b.rc != 0:
            self.skip("hilo refuses the input")
            return
        bt, at = b.text(), r.text()
        if bt == at:
            self.unchanged += 1
            return
        key = X.digest(bt + "\0" + at)
        if key in self.seen:
            return
        self.seen.add(key)
        verdict, detail = run_pair(self.xla, bt, at, SEEDS, by_name,
                                   nsz="--assume-no-signed-zeros" in flags)
        self.judge(verdict, "%s [%s]" % (name, " ".join(flags)), detail)

    def planted(self, name, text, p, unsound):
        """A planted unsound pass: XLA must see the wrong result (the check
        that shows this tier can fail). A sound test pass: XLA must agree."""
        # the planted passes are in hilo-opt-test only (tests/lib), never in
        # the product's hilo-opt
        r = X.hilo_opt(self.args.build, text, ["--passes=" + p, "--print-style=default"], tool="hilo-opt-test")
        b = X.hilo_opt(self.args.build, text, ["--print-style=default"])
        if r.rc != 0 or b.rc != 0:
            self.tier.check(False, "%s [--passes=%s] (planted unsound pass)" % (name, p),
                            "hilo-opt-test does not run it: %s" % (r.brief() if r.rc else b.brief()))
            return
        if r.out == b.out:
            self.skip("planted pass did not rewrite")
            return
        verdict, detail = run_pair(self.xla, b.text(), r.text(), PLANTED_SEEDS, False)
        if verdict == "skip":
            self.skip("planted: " + detail)
            return
        if not unsound:
            self.judge(verdict, "%s [--passes=%s] (sound test pass)" % (name, p), detail)
            return
        if p in PLANTED_UNSEEN and verdict != "fail":
            self.skip("planted, no value shows it: %s: %s" % (p, PLANTED_UNSEEN[p]))
            return
        self.tier.check(verdict == "fail", "%s [--passes=%s] (planted unsound pass)" % (name, p),
                        "XLA computes the same bits before and after a deliberately wrong rewrite")
        if verdict == "fail":
            self.caught.append("%s: %s" % (p, detail))

    def judge(self, verdict, what, detail):
        if verdict == "skip":
            self.skip(detail)
            return
        if verdict == "modulo":
            self.modulo.append("%s: %s" % (what, detail))
        self.tier.check(verdict in ("ok", "modulo"), what, detail)

    def cones(self, name, path):
        """The regions around each rewrite of --pipeline=neuron in a big dump."""
        with tempfile.TemporaryDirectory(prefix="hilo-xla-cone-") as tmp:
            rem = os.path.join(tmp, "remarks.jsonl")
            after = os.path.join(tmp, "after.hlo")
            r = X.run_tool(self.args.build, "hilo-opt", [path, "--pipeline=neuron", "--check-equivalence",
                                                         "--remarks=" + rem, "-o", after],
                           out_suffix=None, timeout=600)
            if r.rc != 0:
                self.tier.check(False, "%s [--pipeline=neuron]" % name, r.brief())
                return
            users = []
            with open(rem) as f:
                for line in f:
                    d = json.loads(line)
                    if "method" not in d or d.get("method") == "dead":
                        continue
                    m = re.search(r"of ([\w.\-]+): [\w.\-]+ \(\d+:\d+\) replaced by", d.get("reason", ""))
                    if m:
                        users.append(m.group(1))
                    elif d.get("reason", "").endswith("redefined"):
                        users.append(d["instruction"])
            for u in list(dict.fromkeys(users))[:self.args.cones]:
                bc = X.hilo_opt(self.args.build, path, ["--extract=" + u, "--print-style=default"])
                ac = X.hilo_opt(self.args.build, after, ["--extract=" + u, "--print-style=default"])
                if bc.rc != 0 or ac.rc != 0:
                    self.tier.check(False, "%s cone %s" % (name, u), "extract: %s / %s" % (bc.brief(), ac.brief()))
                    continue
                if bc.out == ac.out:
                    self.unchanged += 1
                    continue
                verdict, detail = run_pair(self.xla, bc.text(), ac.text(), SEEDS, by_name=True)
                self.judge(verdict, "%s cone %s [--pipeline=neuron]" % (name, u),
                           ("cone: " + detail) if verdict == "skip" else detail)


# XLA alone computing two equivalent modules differently: each probe is a
# pair (identity, the value itself) that IEEE 754 makes equal for the input,
# and what XLA's CPU backend gives for each. The tier allows exactly these
# differences (compare_modulo_xla); if XLA stops behaving so, the probe fails
# and the allowance must go.
PROBE = """HloModule probe_%s

ENTRY e {
  x = f32[4] parameter(0)
  z = f32[4] parameter(1)
  ROOT r = f32[4] %s
}
"""
SPECIAL = [0x00000001, 0x80000001, 0x7f800001, 0x3f800000]  # denormals, sNaN, 1
PROBES = [
    # x + -0 == x in IEEE 754 for these x (but the sNaN, which it quiets):
    # XLA CPU flushes the denormals to zero and quiets the sNaN
    ("add_negzero", "add(x, z)", SPECIAL, [0x00000000, 0x80000000, 0x7fc00001, 0x3f800000]),
    # the identity itself keeps every bit
    ("copy", "copy(x)", SPECIAL, SPECIAL),
]


def probes(tier, xla):
    """XLA alone: the freedoms compare_modulo_xla allows are real."""
    for name, expr, inp, want in PROBES:
        x = X.np.array(inp, dtype=X.np.uint32).view(X.np.float32)
        z = X.np.full(4, -0.0, X.np.float32)
        r = xla.run(PROBE % (name, expr), inputs=[x, z])
        got = list(map(int, X.np.asarray(r["outputs"][0]).view(X.np.uint32))) if r["ok"] else r.get("error")
        tier.check(got == want, "probe %s: XLA CPU on %s" % (name, [hex(v) for v in inp]),
                   "XLA gives %s, the allowance in compare_modulo_xla expects %s" % (
                       [hex(v) for v in got] if isinstance(got, list) else got, [hex(v) for v in want]))


def stratum(name, flags):
    """(stratum, its quota of counted cases in --suite; None: all)."""
    neuron = flags[0] == "--pipeline=neuron"
    part = name.split("/")
    if part[0] == "tests" and part[1] == "lit":
        return ("lit neuron", SUITE_QUOTA["lit neuron"]) if neuron else \
            ("lit " + part[2], SUITE_QUOTA["lit"])
    if part[0] == "xla-unit":
        kind = "corpus neuron" if neuron else "corpus pass"
        return ("%s %s" % (kind, part[2]), SUITE_QUOTA[kind])
    return (part[0], None)  # examples, real


def suite_order(work):
    """The work in strata: [(stratum, quota, [items in digest order])]."""
    groups = {}
    for w in work:
        key = stratum(w[0], w[2])
        groups.setdefault(key, []).append(w)
    return [(k, q, sorted(items, key=lambda w: X.digest(w[0] + "\0" + " ".join(w[2]))))
            for (k, q), items in groups.items()]


def main():
    args = X.tier_args("run", extra=lambda ap: ap.add_argument(
        "--suite", action="store_true", help="the fixed stratified selection of make test (~5 min)"))
    args.cones = int(os.environ.get("HILO_XLA_CONES", str(SUITE_CONES if args.suite else 12)))
    tier = X.Tier("run", args)
    rp = RunParity(tier, args)
    work = []
    planted = []
    for name, text in X.lit_inputs():
        for flags in lit_passes(text) + [["--pipeline=neuron"]]:
            work.append((name, text, flags))
        for p, unsound in planted_passes(text):
            planted.append((name, text, p, unsound))
    for name, path in X.example_inputs():
        work.append((name, path, ["--pipeline=neuron"]))
        work.append((name, path, ["--passes=" + UNROLLED_FLOW]))
    corpus = os.path.join(args.shared, "corpus")
    big = []
    if os.path.isdir(corpus):
        for name, path in X.corpus_inputs(args.shared, "xla-unit/passes"):
            p = CORPUS_PASS.get(name.split("/")[2])
            if p:
                work.append((name, path, ["--passes=" + p]))
            work.append((name, path, ["--pipeline=neuron"]))
        for name, path in X.corpus_inputs(args.shared, "real"):
            if os.path.getsize(path) > BIG:
                big.append((name, path))
            else:
                work.append((name, path, ["--pipeline=neuron"]))
    else:
        tier.notes.append("no corpus at %s: its modules not run (not counted)" % corpus)
    if args.only:
        work = [w for w in work if re.search(args.only, w[0])]
        big = [b for b in big if re.search(args.only, b[0])]
    if args.cases is not None:
        work = work[:args.cases]
    def timed(what, fn, *a):
        """Run one item; with --verbose, one line: counted/passed/skipped, seconds."""
        t0, n0, p0, s0, u0 = time.time(), tier.total, tier.passed, sum(rp.skips.values()), rp.unchanged
        fn(*a)
        if args.verbose:
            print("case %s: counted %d passed %d skipped %d unchanged %d %.1f s" % (
                what, tier.total - n0, tier.passed - p0, sum(rp.skips.values()) - s0,
                rp.unchanged - u0, time.time() - t0), flush=True)

    try:
        probes(tier, rp.xla)
        if not args.suite:
            for name, src, flags in work:
                timed("%s [%s]" % (name, " ".join(flags)), rp.case, name, src, flags)
        for key, quota, items in (suite_order(work) if args.suite else []):
            counted = 0
            for name, src, flags in items:
                if quota is not None and counted >= quota:
                    break
                n0 = tier.total
                timed("%s [%s]" % (name, " ".join(flags)), rp.case, name, src, flags)
                counted += tier.total - n0
            tier.notes.append("suite: %s: %d counted of %d pairs" % (key, counted, len(items)))
        for name, path in big:
            timed("%s [cones]" % name, rp.cones, name, path)
        for name, text, p, unsound in planted:
            if not args.only or re.search(args.only, name):
                timed("%s [planted %s]" % (name, p), rp.planted, name, text, p, unsound)
        if not args.only and args.cases is None:
            caught = sorted(set(c.split(":")[0] for c in rp.caught))
            tier.check(len(caught) >= PLANTED_MIN, "planted unsound passes caught",
                       "%d distinct (%s), at least %d expected" % (len(caught), ", ".join(caught), PLANTED_MIN))
    finally:
        rp.xla.close()
    tier.notes.append("%d pairs where the passes changed nothing (not counted)" % rp.unchanged)
    if rp.modulo:
        tier.notes.append("%d cases differ only in NaN bits or flushed denormals on special inputs and agree "
                          "bit for bit on ordinary inputs (counted as passed; XLA's freedoms, see the probes): %s"
                          % (len(rp.modulo), "; ".join(rp.modulo)))
    if rp.caught:
        tier.notes.append("planted unsound passes XLA caught: %s" % "; ".join(rp.caught))
    for k, v in sorted(rp.skips.items(), key=lambda kv: -kv[1]):
        tier.notes.append("not runnable on XLA CPU, not counted: %d x %s" % (v, k))
    for n in tier.notes:
        print("note: " + n)
    return tier.finish()


if __name__ == "__main__":
    sys.exit(main())
