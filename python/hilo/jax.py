"""hilo.jax: hilo's passes inside XLA's compiler, for every jitted function.

    import jax, hilo.jax
    report = hilo.jax.install(passes=["pipeline:neuron"], check_equivalence=True)
    y = jax.jit(f)(x)              # XLA compiles f's module through hilo
    hilo.jax.uninstall()
    for r in report:               # one record per module XLA compiled
        print(r["module"], r["changed"], r["equivalence"])

install() registers a module transformation with XLA (jax 0.10.2's
jax.extend.xla.register_hlo_module_transformation): at the chosen stage
of XLA's pipeline (PRE_SCHEDULER by default: after XLA's own HLO
optimizations, before scheduling) XLA hands each module over as a
serialized HloModuleProto; hilo reads it, runs the passes (validating each
rewrite when check_equivalence is on) and gives XLA back the rewritten
module, or nothing when no pass changed it. A module hilo cannot read, or
a rewrite the validator rejects, is never given back: with on_error="keep"
(the default) XLA compiles its own module and the record says why; with
on_error="raise" the compilation fails with the error.

jax caches compiled functions, so install() and uninstall() clear jax's
caches: a function compiled before install() is compiled again, through
hilo, on its next call. jax is imported only by install() and
uninstall(); importing hilo.jax needs no jax.
"""

import threading

from . import HiloError, Module

__all__ = ["install", "uninstall", "Report"]

_NAME = "hilo"


class Report(list):
    """The records of the modules XLA compiled while hilo was installed,
    one dict per module, in compilation order:
      module       the module's name
      changed      True when hilo gave XLA a rewritten module
      stats        per-pass {"pass", "rewrites", ...} (hilo's run_passes)
      remarks      hilo's remarks (every decision, with its reason)
      equivalence  the validator's verdicts ({"rewrites", "proved",
                   "tested", "skipped", "failed", ...}) or None
      error        None, or why the module was left to XLA as it was
    """

    def verdicts(self):
        """The verdict counts summed over every module."""
        tot = {}
        for r in self:
            for k, v in (r.get("equivalence") or {}).items():
                if isinstance(v, int) and not isinstance(v, bool):
                    tot[k] = tot.get(k, 0) + v
        return tot


class _Installed:
    """What install() registered (one at a time, guarded by _lock)."""

    def __init__(self, stage, platforms):
        self.stage = stage
        self.platforms = platforms


_lock = threading.Lock()
_installed = [None]


def _xla():
    import jax
    import jax.extend.xla
    if not hasattr(jax.extend.xla, "register_hlo_module_transformation"):
        raise HiloError("hilo.jax: this jax (%s) cannot rewrite modules during compilation "
                        "(jax.extend.xla.register_hlo_module_transformation needs jax >= 0.10.2)"
                        % jax.__version__)
    return jax, jax.extend.xla


def _transform(passes, check_equivalence, inputs, seed, on_error, report):
    """The callback XLA calls: proto bytes in, rewritten proto bytes or None out."""
    def run(proto):
        rec = {"module": None, "changed": False, "stats": [], "remarks": [],
               "equivalence": None, "error": None}
        report.append(rec)
        try:
            m = Module.from_proto(proto, filename="<xla module>")
            rec["module"] = _module_name(m)
            res = m.run_passes(list(passes), check_equivalence=check_equivalence,
                               inputs=inputs, seed=seed)
            rec["stats"], rec["remarks"], rec["equivalence"] = res.stats, res.remarks, res.equivalence
            if not any(s.get("rewrites", 0) for s in res.stats):
                return None
            out = m.to_proto()
        except HiloError as e:
            rec["error"] = str(e)
            if on_error == "raise":
                raise
            return None
        rec["changed"] = True
        return out
    return run


def _module_name(m):
    first = m.to_text("short").split("\n", 1)[0]          # "HloModule NAME, ..."
    parts = first.split()
    return parts[1].rstrip(",") if len(parts) > 1 else None


def install(passes=("pipeline:neuron",), check_equivalence=True, report=None, inputs=3, seed=0,
            on_error="keep", stage="pre_scheduler", platforms="cpu"):
    """Run `passes` (names as Module.run_passes takes them) on every module
    XLA compiles for `platforms` from now on, at `stage` ("pre_scheduler" or
    "post_scheduler"). check_equivalence as in Module.run_passes (True:
    every rewrite validated; "strict": a skipped rewrite is an error too).
    Returns the Report the records go into (`report`, a list you pass, or a
    new Report). Replaces an earlier install()."""
    if on_error not in ("keep", "raise"):
        raise ValueError("on_error must be 'keep' or 'raise', not %r" % (on_error,))
    if isinstance(passes, str):
        passes = [passes]
    jax, xla = _xla()
    stages = {"pre_scheduler": xla.PipelineStage.PRE_SCHEDULER,
              "post_scheduler": xla.PipelineStage.POST_SCHEDULER}
    if stage not in stages:
        raise ValueError("stage must be one of %s, not %r" % (", ".join(stages), stage))
    if report is None:
        report = Report()
    with _lock:
        _uninstall_locked(jax, xla)
        xla.register_hlo_module_transformation(
            _transform(tuple(passes), check_equivalence, inputs, seed, on_error, report),
            name=_NAME, stage=stages[stage], platforms=platforms)
        _installed[0] = _Installed(stages[stage], platforms)
        jax.clear_caches()
    return report


def _uninstall_locked(jax, xla):
    cur = _installed[0]
    if cur is None:
        return False
    xla.clear_hlo_module_transformation(_NAME, stage=cur.stage, platforms=cur.platforms)
    _installed[0] = None
    jax.clear_caches()
    return True


def uninstall():
    """Remove what install() registered; True if something was installed."""
    jax, xla = _xla()
    with _lock:
        return _uninstall_locked(jax, xla)
